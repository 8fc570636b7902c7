#!/usr/bin/env python3
"""tokentime benchmarks (issue 22's targets): tokentime and its baselines side by side, on the same
files, interleaved, several repetitions; prints medians and ratios and writes the generated block of
BENCHMARKS.md (between the bench:begin / bench:end markers): a table of every target (baseline,
tokentime, ratio, goal, met or not) and the detail tables, so that the figures there are never
typed in.

    python3 bench/run.py                       # 1M, 10M, 50M tokens, 3 repetitions, a 200M day
    python3 bench/run.py --sizes 1M,10M --reps 3 --only ingest,answers --no-write

What runs (each a separate process, timed from outside: wall time and peak RSS via wait4):
  ingest    ./tokentime ingest of canonical JSONL (per-request tokens_ns and token-per-line forms)
            against DuckDB's own read_json + unnest into a persistent flat tokens table
            (dev.tokentime.bench.DuckDbReadJson)                                 target 1b, 5, 6
            and, for the per-request form, ingest + summary against the same done by hand in
            DuckDB: read_json into flat tables, lag() ITL and TTFT/E2E percentiles
            (dev.tokentime.bench.DiyDuckDb)                                      target 1a
  answers   ITL percentiles and the batch-size timeline from tokentime's views against lag() and a
            bucketed count over the bare table (dev.tokentime.bench.QueryBench); summary wall time;
            tokentime report against the ingest of the same tokens              target 2
  script    a hand-written Python script computing TTFT/ITL percentiles (bench/baselines/ttft_itl.py)
            against tokentime ingest + summary                                      target 3
  text      a vLLM server log: tokentime ingest against DuckDB read_csv + regexp_extract
            (dev.tokentime.bench.DuckDbTextLog) and a Python regex script
            (bench/baselines/vllm_log_regex.py)                                     target 4
  long-line a 100 MB line between two good ones: rejected with a reason, bounded memory   target 5
  files     the same tokens in 4 files, read one at a time (--jobs 1) and in parallel  target 6
  jmh       JMH benchmarks of the parser hot loops (bench/jmh; downloads JMH once)
  day       a day of traffic (--day-size, 200M tokens, one repetition): ingest, report, the peer
            tools' views and compare                                               target 2, also

Inputs come from `tokentime generate` (deterministic per seed) under --data (default
target/bench-data), made once and reused. Needs Java 17, Maven and Python 3; no network.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKENTIME = os.path.join(ROOT, "tokentime")
CP = ":".join([os.path.join(ROOT, "target", "test-classes"), os.path.join(ROOT, "target", "tokentime.jar"),
               os.path.join(ROOT, "target", "lib", "*")])
JAVA_BASE = ["java", "-Xmx512m", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", CP]
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


# ---- running things --------------------------------------------------------------------------

class Result:
    def __init__(self, wall, rss_mb, out, err, code):
        self.wall, self.rss_mb, self.out, self.err, self.code = wall, rss_mb, out, err, code


def run(cmd, env=None, check=True):
    """Runs cmd, returning wall seconds, peak RSS (MB, from wait4) and its output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        r = Result(wall, usage.ru_maxrss / 1024.0, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), p.returncode)
    if check and r.code != 0:
        sys.exit("benchmark step failed (exit %d): %s\n%s\n%s" % (r.code, " ".join(cmd), r.out[-2000:], r.err[-2000:]))
    return r


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def rm_db(path):
    for p in (path, path + ".wal"):
        if os.path.exists(p):
            os.remove(p)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def tokens_of(size):
    m = re.fullmatch(r"(\d+)([MK]?)", size)
    if not m:
        sys.exit("sizes look like 1M,10M,50M (got %s)" % size)
    return int(m.group(1)) * {"M": 1_000_000, "K": 1_000, "": 1}[m.group(2)]


# ---- inputs ----------------------------------------------------------------------------------

def generate(data, name, args):
    """tokentime generate into data/name unless already there; returns the directory."""
    d = os.path.join(data, name)
    done = os.path.join(d, ".done")
    cmd = ["generate", "--out", d, "--seed", "42", "--slots", "16", "--token-timing", "steps"] + args
    # .done holds the command that wrote the directory: inputs of another command are made again
    if not os.path.exists(done) or open(done).read() != " ".join(cmd):
        shutil.rmtree(d, ignore_errors=True)
        log("generating %s ..." % name)
        run([TOKENTIME] + cmd)
        with open(done, "w") as f:
            f.write(" ".join(cmd))
    return d


def one_file(d, ext):
    # generate writes a vLLM log into a directory per level (the log names no run)
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if f.endswith(ext))
    assert len(files) == 1, (d, files)
    warm(files[0])
    return files[0]


def warm(path):
    # read once before it is timed, so that every timed process, baseline or tokentime, reads it
    # from the page cache: the first would otherwise pay alone for a cache that the files timed
    # before emptied (the day's 4 GB evict the rest), and with two repetitions that one cold read
    # moved a median by seconds
    with open(path, "rb") as fh:
        while fh.read(1 << 23):
            pass


def long_line_file(data):
    path = os.path.join(data, "long-line", "c1.jsonl")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        good = '{"request_id":"r%d","run":"c1","arrival_ns":1000,"first_token_ns":2000,"tokens_ns":[2000,3000]}\n'
        with open(path, "w") as f:
            f.write(good % 1)
            f.write('{"request_id":"big","run":"c1","arrival_ns":1000,"prompt":"')
            chunk = "x" * (1 << 20)
            for _ in range(100):
                f.write(chunk)
            f.write('"}\n')
            f.write(good % 2)
    return path


# ---- benchmarks ------------------------------------------------------------------------------

# keeps what a run measured so far (main sets it): called after each benchmark and each ingest row
SAVE = lambda res: None


def bench_ingest(res, data, sizes, forms, reps, tokens_form_max):
    tmp = os.path.join(data, "db")
    os.makedirs(tmp, exist_ok=True)
    for size in sizes:
        n = tokens_of(size)
        for form in forms:
            if form == "tokens" and n > tokens_of(tokens_form_max):
                continue
            d = generate(data, "%s-%s" % (form, size), ["--levels", "16", "--tokens", str(n),
                                                          "--mean-output", "500", "--form", form])
            f = one_file(d, ".jsonl")
            mb = os.path.getsize(f) / 1e6
            key = "%s/%s" % (form, size)
            base_db, tt_db = os.path.join(tmp, "base.duckdb"), os.path.join(tmp, "tt-%s-%s.duckdb" % (form, size))
            row = {"size": size, "tokens": n, "form": form, "mb": mb, "base": [], "tt": [], "base_rss": [], "tt_rss": [],
                   "summary": [], "summary_rss": [], "diy": [], "diy_rss": []}
            diy_db = os.path.join(tmp, "diy.duckdb")
            for rep in range(reps):
                log("ingest %s, repetition %d/%d" % (key, rep + 1, reps))
                rm_db(base_db)
                b = run(JAVA_BASE + ["dev.tokentime.bench.DuckDbReadJson", form, f, base_db])
                rm_db(tt_db)
                t = run([TOKENTIME, "ingest", "--db", tt_db, f])
                if "0 rejected" not in t.out:
                    sys.exit("tokentime rejected lines of a generated file:\n" + t.out)
                row["base"].append(b.wall)
                row["tt"].append(t.wall)
                row["base_rss"].append(b.rss_mb)
                row["tt_rss"].append(t.rss_mb)
                if form == "requests":
                    # target 1a: the first answer, tokentime's two commands against the same by hand
                    s = run([TOKENTIME, "summary", "--db", tt_db])
                    rm_db(diy_db)
                    d = run(JAVA_BASE + ["dev.tokentime.bench.DiyDuckDb", f, diy_db])
                    rm_db(diy_db)
                    row["summary"].append(s.wall)
                    row["summary_rss"].append(s.rss_mb)
                    row["diy"].append(d.wall)
                    row["diy_rss"].append(d.rss_mb)
            if form == "requests":
                # keep a baseline table of this file for the answer benchmark
                keep = os.path.join(tmp, "base-%s.duckdb" % size)
                rm_db(keep)
                os.replace(base_db, keep)
            res["ingest"].append(row)
            SAVE(res)


def bench_answers(res, data, size, reps):
    tmp = os.path.join(data, "db")
    tt_db = os.path.join(tmp, "tt-requests-%s.duckdb" % size)
    base_db = os.path.join(tmp, "base-%s.duckdb" % size)
    log("answers over %s tokens ..." % size)
    q = run(JAVA_BASE + ["dev.tokentime.bench.QueryBench", tt_db, base_db, str(reps)])
    answers = {"size": size, "queries": {}, "summary": []}
    for line in q.out.splitlines():
        m = re.match(r"query (\S+) seconds ([\d. ]+) rows (\d+)", line)
        if m:
            answers["queries"][m.group(1)] = {"seconds": [float(x) for x in m.group(2).split()], "rows": int(m.group(3))}
    for rep in range(reps):
        s = run([TOKENTIME, "summary", "--db", tt_db])
        answers["summary"].append(s.wall)
    res["answers"] = answers


def bench_report(res, data, size, reps):
    """tokentime report over the ingest benchmark's database of this size (target 2: its ingest's share)."""
    tt_db = os.path.join(data, "db", "tt-requests-%s.duckdb" % size)
    out = os.path.join(data, "db", "report-%s.html" % size)
    row = {"size": size, "report": [], "report_rss": []}
    for rep in range(reps):
        log("report over %s tokens, repetition %d/%d" % (size, rep + 1, reps))
        r = run([TOKENTIME, "report", "--db", tt_db, "-o", out])
        row["report"].append(r.wall)
        row["report_rss"].append(r.rss_mb)
    res["report"] = row


# the views that answer as each peer tool would (queries/peers), read whole at a day's scale
PEER_VIEWS = ["vllm_bench_metrics", "sglang_bench_metrics", "aiperf_metrics", "genai_perf_metrics",
              "llmperf_metrics", "guidellm_metrics", "inference_perf_metrics", "genai_bench_metrics",
              "llm_load_test_metrics"]


def bench_day(res, data, size):
    """A day of traffic, once: ingest, report, each peer view, conventions and compare (target 2, also)."""
    n = tokens_of(size)
    d = generate(data, "requests-%s" % size, ["--levels", "16", "--tokens", str(n), "--mean-output", "500",
                                             "--form", "requests"])
    f = one_file(d, ".jsonl")
    db = os.path.join(data, "db", "day-%s.duckdb" % size)
    rm_db(db)
    log("a day: ingest of %s tokens ..." % size)
    row = {"size": size, "steps": []}

    def step(name, cmd):
        r = run(cmd)
        row["steps"].append({"name": name, "wall": r.wall, "rss_mb": r.rss_mb})
        return r

    step("ingest", [TOKENTIME, "ingest", "--db", db, f])
    log("a day: report ...")
    step("report", [TOKENTIME, "report", "--db", db, "-o", os.path.join(data, "db", "day-%s.html" % size)])
    for v in PEER_VIEWS:
        log("a day: %s ..." % v)
        step(v, [TOKENTIME, "query", "--db", db, "--format", "csv", v])
    log("a day: conventions, compare ...")
    step("conventions", [TOKENTIME, "conventions", "--db", db])
    step("compare", [TOKENTIME, "compare", "--db", db, "c16", "c16"])
    rm_db(db)
    res["day"] = row


def bench_script(res, data, size, reps):
    f = one_file(os.path.join(data, "requests-%s" % size), ".jsonl")
    tmp = os.path.join(data, "db", "script.duckdb")
    row = {"size": size, "py": [], "py_rss": [], "tt": [], "tt_rss": []}
    for rep in range(reps):
        log("script %s, repetition %d/%d" % (size, rep + 1, reps))
        p = run(["python3", os.path.join(ROOT, "bench", "baselines", "ttft_itl.py"), f])
        rm_db(tmp)
        i = run([TOKENTIME, "ingest", "--db", tmp, f])
        s = run([TOKENTIME, "summary", "--db", tmp])
        row["py"].append(p.wall)
        row["py_rss"].append(p.rss_mb)
        row["tt"].append(i.wall + s.wall)
        row["tt_rss"].append(max(i.rss_mb, s.rss_mb))
    res["script"] = row


def bench_text(res, data, size, reps):
    d = generate(data, "vllm-log-%s" % size, ["--levels", "16", "--tokens", str(tokens_of(size)),
                                              "--mean-output", "500", "--form", "vllm-log"])
    f = one_file(d, ".log")
    mb = os.path.getsize(f) / 1e6
    with open(f, "rb") as fh:
        lines = sum(1 for _ in fh)
    tmp = os.path.join(data, "db")
    os.makedirs(tmp, exist_ok=True)  # --only text: no other benchmark made it
    row = {"size": size, "mb": mb, "lines": lines, "tt": [], "duckdb": [], "py": [], "tt_rss": [], "duckdb_rss": [], "py_rss": []}
    for rep in range(reps):
        log("text log %s, repetition %d/%d" % (size, rep + 1, reps))
        db = os.path.join(tmp, "text-tt.duckdb")
        rm_db(db)
        t = run([TOKENTIME, "ingest", "--db", db, f])
        bdb = os.path.join(tmp, "text-base.duckdb")
        b = run(JAVA_BASE + ["dev.tokentime.bench.DuckDbTextLog", f, bdb])
        p = run(["python3", os.path.join(ROOT, "bench", "baselines", "vllm_log_regex.py"), f])
        for k, r in (("tt", t), ("duckdb", b), ("py", p)):
            row[k].append(r.wall)
            row[k + "_rss"].append(r.rss_mb)
        log("  tokentime %.1f MB/s, DuckDB %.1f MB/s, Python %.1f MB/s" % (mb / t.wall, mb / b.wall, mb / p.wall))
    res["text"] = row
    log("text log: tokentime %.1f MB/s; DuckDB / tokentime %.2f, Python / tokentime %.2f (above 1: tokentime ahead)"
        % (mb / med(row["tt"]), med(row["duckdb"]) / med(row["tt"]), med(row["py"]) / med(row["tt"])))


def bench_long_line(res, data):
    f = long_line_file(data)
    db = os.path.join(data, "db", "long-line.duckdb")
    rm_db(db)
    log("a 100 MB line ...")
    r = run([TOKENTIME, "ingest", "--db", db, f], check=False)
    res["long_line"] = {"mb": os.path.getsize(f) / 1e6, "code": r.code, "wall": r.wall, "rss_mb": r.rss_mb,
                        "report": (r.out.strip().splitlines() or [""])[0],
                        "oom": "OutOfMemoryError" in r.err}


def bench_files(res, data, size, reps):
    n = tokens_of(size)
    d = generate(data, "files-%s" % size, ["--levels", "8,16,32,64", "--tokens", str(n), "--mean-output", "500"])
    row = {"size": size, "files": len([f for f in os.listdir(d) if f.endswith(".jsonl")]), "one": [], "parallel": []}
    db = os.path.join(data, "db", "files.duckdb")
    for rep in range(reps):
        log("%d files, repetition %d/%d" % (row["files"], rep + 1, reps))
        rm_db(db)
        row["one"].append(run([TOKENTIME, "ingest", "--jobs", "1", "--db", db, d]).wall)
        rm_db(db)
        row["parallel"].append(run([TOKENTIME, "ingest", "--db", db, d]).wall)
    res["files"] = row


def bench_jmh(res):
    """The JMH parser benchmarks (bench/jmh): average ms per pass over in-memory generated inputs."""
    log("JMH parser benchmarks ...")
    run(["mvn", "-B", "-q", "-f", os.path.join(ROOT, "bench", "jmh", "pom.xml"), "clean", "package",
         "dependency:copy-dependencies"])
    out = os.path.join(ROOT, "target", "bench", "jmh.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cp = ":".join([os.path.join(ROOT, "bench", "jmh", "target", "classes"),
                   os.path.join(ROOT, "bench", "jmh", "target", "dependency", "*"),
                   os.path.join(ROOT, "target", "tokentime.jar")])
    r = run(["java", "-cp", cp, "org.openjdk.jmh.Main", "-rf", "json", "-rff", out])
    sizes = re.search(r"inputs: requests form (\d+) bytes, tokens form (\d+) bytes, vLLM log (\d+) bytes", r.out)
    size_of = {"lineSplitting": 0, "canonicalJsonlRequestsForm": 0, "canonicalJsonlTokensForm": 1, "vllmLogSpec": 2}
    rows = []
    with open(out) as f:
        for b in json.load(f):
            name = b["benchmark"].rsplit(".", 1)[1]
            ms = b["primaryMetric"]["score"]
            err = b["primaryMetric"]["scoreError"]
            mb = int(sizes.group(size_of[name] + 1)) / 1e6 if sizes else float("nan")
            rows.append({"name": name, "ms": ms, "err": err, "mb": mb})
    if not rows:
        # JMH exits 0 when its benchmarks throw (a jar older or newer than bench/jmh's classes)
        sys.exit("JMH measured nothing:\n%s\n%s" % (r.out[-3000:], r.err[-2000:]))
    res["jmh"] = rows


# ---- report ----------------------------------------------------------------------------------

def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    load = os.getloadavg()[0]
    return "%d cores (%s), %.0f GB RAM, %s, %s; load average %.1f at the start" % (
        os.cpu_count(), cpu, mem, platform.platform(terse=True), java, load)


def fmt_s(x):
    return "%.2f s" % x


def verdict(ok):
    return "holds" if ok else "**missed**"


def met(ok):
    return "met" if ok else "**not met**"


def targets(res):
    """One row per target of issue 22 that this run measured: what, baseline, tokentime, ratio, goal, met."""
    T = []
    for r in res["ingest"]:
        if r["form"] == "requests" and r["diy"] and r["tokens"] >= 10_000_000:
            b = med(r["diy"])
            t = med([i + s for i, s in zip(r["tt"], r["summary"])])
            T.append(("1a", "first answer, %s tokens: ingest + summary" % r["size"],
                      "by hand in DuckDB (`DiyDuckDb`)", fmt_s(b), fmt_s(t), "%.2f×" % (t / b), "≤ 1.0×", met(t <= b)))
    for r in res["ingest"]:
        if r["tokens"] >= 10_000_000:
            b, t = med(r["base"]), med(r["tt"])
            goal = 1.5 if r["form"] == "requests" else 2.5
            T.append(("1b", "ingest alone, %s tokens, %s form" % (r["size"], "per-request" if r["form"] == "requests"
                                                                  else "token-per-line"),
                      "DuckDB `read_json` (`DuckDbReadJson`)", fmt_s(b), fmt_s(t), "%.2f×" % (t / b),
                      "≤ %.1f×" % goal, met(t / b <= goal)))
    a = res.get("answers")
    if a and "batch_bucket_baseline" in a["queries"] and "batch_tokens_tokentime" in a["queries"]:
        q = a["queries"]
        b, t = med(q["batch_bucket_baseline"]["seconds"]), med(q["batch_tokens_tokentime"]["seconds"])
        T.append(("2", "batch size per 10 ms, %s tokens" % a["size"], "`count(DISTINCT request_id)` per bucket",
                  fmt_s(b), fmt_s(t), "%.2f×" % (t / b), "≤ 0.5×", met(t / b <= 0.5)))
    rp = res.get("report")
    if rp:
        ing = [r for r in res["ingest"] if r["form"] == "requests" and r["size"] == rp["size"]]
        if ing:
            b, t = med(ing[0]["tt"]), med(rp["report"])
            T.append(("2", "`report`, %s tokens" % rp["size"], "`ingest` of the same tokens", fmt_s(b), fmt_s(t),
                      "%.2f×" % (t / b), "≤ 0.5×", met(t / b <= 0.5)))
    day = res.get("day")
    if day:
        st = {x["name"]: x for x in day["steps"]}
        b = st["ingest"]["wall"]
        t = st["report"]["wall"]
        T.append(("2", "`report`, %s tokens" % day["size"], "`ingest` of the same tokens", fmt_s(b), fmt_s(t),
                  "%.2f×" % (t / b), "≤ 1.0×", met(t <= b)))
        for v in PEER_VIEWS + ["conventions"]:
            if v in st:
                T.append(("2, also", "`%s`, %s tokens" % (v, day["size"]), "—", "—", fmt_s(st[v]["wall"]), "—",
                          "≤ 10 s", met(st[v]["wall"] <= 10)))
        if "compare" in st:
            T.append(("2, also", "`compare c16 c16`, %s tokens" % day["size"], "—", "—", fmt_s(st["compare"]["wall"]),
                      "—", "≤ 20 s", met(st["compare"]["wall"] <= 20)))
    sc = res.get("script")
    if sc:
        py, tt = med(sc["py"]), med(sc["tt"])
        T.append(("3", "ingest + summary, %s tokens: speed" % sc["size"], "`bench/baselines/ttft_itl.py`",
                  fmt_s(py), fmt_s(tt), "%.1f× faster" % (py / tt), "≥ 4× faster", met(py / tt >= 4)))
        mem = max(sc["tt_rss"]) / max(sc["py_rss"])
        T.append(("3", "ingest + summary, %s tokens: memory" % sc["size"], "the same script",
                  "%.0f MB" % max(sc["py_rss"]), "%.0f MB" % max(sc["tt_rss"]), "%.2f" % mem, "≤ 0.25", met(mem <= 0.25)))
    rss = [x for r in res["ingest"] for x in r["tt_rss"] + r["summary_rss"]]
    rss += res.get("report", {}).get("report_rss", [])
    rss += [x["rss_mb"] for x in (day or {}).get("steps", [])]
    if rss:
        T.append(("5", "peak RSS of every tokentime command timed here", "—", "—", "%.0f MB" % max(rss), "—",
                  "< 1536 MB", met(max(rss) < 1536)))
    ll = res.get("long_line")
    if ll:
        T.append(("5", "a 100 MB line", "—", "—", "exit %d, %.0f MB" % (ll["code"], ll["rss_mb"]), "—",
                  "rejected, no OutOfMemoryError", met(ll["code"] == 0 and not ll["oom"])))
    per_m = {r["tokens"]: med(r["tt"]) / (r["tokens"] / 1e6) for r in res["ingest"] if r["form"] == "requests"}
    big = [k for k in per_m if k >= 10_000_000]
    if len(big) >= 2:
        lo, hi = min(big), max(big)
        T.append(("6", "ingest s per M tokens, %dM against %dM" % (hi // 1_000_000, lo // 1_000_000),
                  "%dM" % (lo // 1_000_000), "%.3f s" % per_m[lo], "%.3f s" % per_m[hi], "%.2f×" % (per_m[hi] / per_m[lo]),
                  "≤ 1.0× (linear or better)", met(per_m[hi] <= per_m[lo])))
    fl = res.get("files")
    if fl:
        one, par = med(fl["one"]), med(fl["parallel"])
        T.append(("6", "%d files in parallel" % fl["files"], "one at a time", fmt_s(one), fmt_s(par),
                  "%.2f×" % (par / one), "≤ 1.0×", met(par <= one)))
    return T


def report(res, args):
    L = []
    L.append("Written by `%s` on %s. Machine: %s." % (" ".join(["python3", "bench/run.py"] + args.argv),
                                                      res["date"], res["machine"]))
    m = re.search(r"load average ([\d.]+) at the start", res["machine"])
    if m and float(m.group(1)) > 1.5 * (os.cpu_count() or 1):
        L.append("")
        L.append("**A busy machine: load average %s at the start on %d cores.** Other work shared the cores, and "
                 "the ratios move with the load (tokentime's ingest keeps both cores busy): run it again on a quiet "
                 "machine before reading a target as met or missed." % (m.group(1), os.cpu_count()))
    L.append("")
    T = targets(res)
    if T:
        L.append("### Targets")
        L.append("")
        L.append("| target | what | baseline | baseline | tokentime | ratio | goal | |")
        L.append("|---|---|---|---|---|---|---|---|")
        for row in T:
            L.append("| %s |" % " | ".join(row))
        L.append("")
    L.append("Each figure is the median of %d repetitions, run interleaved (baseline, tokentime, baseline, ...) "
             "as separate processes and timed from outside (wall time; peak RSS from `wait4`). Inputs: "
             "`tokentime generate --levels 16 --mean-output 500 --slots 16 --seed 42 --token-timing steps` (one run at concurrency 16; tokens of the batch in lock-step, as an engine's iterations make them)."
             % res["reps"])
    L.append("")
    if res["ingest"]:
        L.append("### Ingest (targets 1, 5, 6)")
        L.append("")
        L.append("Baseline: DuckDB's own `read_json` + `unnest` into a persistent flat `tokens(request_id, seq, ts_ns)` "
                 "table through DuckDB JDBC (`dev.tokentime.bench.DuckDbReadJson`). tokentime: `./tokentime ingest` "
                 "into a new database file — parsing, rejects accounting, derived gaps and per-request aggregates, "
                 "invariant checks and the views included. Ratio = tokentime / baseline (target 1: at most 1.0).")
        L.append("")
        L.append("| form | tokens | file | DuckDB read_json | tokentime ingest | ratio | tokentime peak RSS | baseline peak RSS | tokentime s per M tokens |")
        L.append("|---|---|---|---|---|---|---|---|---|")
        for r in res["ingest"]:
            b, t = med(r["base"]), med(r["tt"])
            L.append("| %s | %s | %.0f MB | %s | %s | %.2f× | %.0f MB | %.0f MB | %.3f |" % (
                r["form"], r["size"], r["mb"], fmt_s(b), fmt_s(t), t / b, max(r["tt_rss"]), max(r["base_rss"]),
                t / (r["tokens"] / 1e6)))
        L.append("")
        first = [r for r in res["ingest"] if r.get("diy")]
        if first:
            L.append("The first answer (target 1a): by hand, one DuckDB session (`dev.tokentime.bench.DiyDuckDb`): "
                     "`read_json` into a flat `tokens(request_id, seq, ts_ns)` table and a `requests(request_id, "
                     "arrival_ns, first_token_ns, finished_ns)` table, then the ITL percentiles with `lag()` and the "
                     "TTFT and E2E percentiles. tokentime: `tokentime ingest` then `tokentime summary` (two processes).")
            L.append("")
            L.append("| tokens | by hand in DuckDB | tokentime ingest | tokentime summary | ingest + summary | ratio | peak RSS, by hand | peak RSS, tokentime |")
            L.append("|---|---|---|---|---|---|---|---|")
            for r in first:
                d = med(r["diy"])
                both = med([i + s for i, s in zip(r["tt"], r["summary"])])
                L.append("| %s | %s | %s | %s | %s | %.2f× | %.0f MB | %.0f MB |" % (
                    r["size"], fmt_s(d), fmt_s(med(r["tt"])), fmt_s(med(r["summary"])), fmt_s(both), both / d,
                    max(r["diy_rss"]), max(r["tt_rss"] + r["summary_rss"])))
            L.append("")
    a = res.get("answers")
    if a:
        q = a["queries"]
        L.append("### Answers over %s tokens (target 2)" % a["size"])
        L.append("")
        L.append("One read-only connection to the tokentime database with the baseline's database attached; every result "
                 "read to the end (`dev.tokentime.bench.QueryBench`). Target 2: the batch size per 10 ms at most 0.5× the "
                 "plain SQL for the same shape of answer (the first batch row); the other rows are for reference.")
        L.append("")
        L.append("| question | baseline query | baseline | rows | tokentime | tokentime | rows | ratio |")
        L.append("|---|---|---|---|---|---|---|---|")
        for name, bq, tq, tname in (("P50/P90/P99 ITL", "itl_lag_baseline", "itl_tokentime", "`itl_distribution` (chunk_gap)"),
                                    ("batch size per 10 ms", "batch_bucket_baseline", "batch_tokens_tokentime",
                                     "`batch_size_timeline_at(0.01)`, tokens method: bucket and batch"),
                                    ("batch size per 10 ms, whole view", "batch_bucket_baseline", "batch_timeline_tokentime",
                                     "`batch_size_timeline_at(0.01)`: 3 methods, every column")):
            if bq in q and tq in q:
                b, t = med(q[bq]["seconds"]), med(q[tq]["seconds"])
                L.append("| %s | %s | %s | %d | %s | %s | %d | %.2f× |" % (
                    name, {"itl_lag_baseline": "`lag()` over the bare table", "batch_bucket_baseline":
                           "`count(DISTINCT request_id)` per 10 ms bucket"}[bq], fmt_s(b), q[bq]["rows"], tname,
                    fmt_s(t), q[tq]["rows"], t / b))
        L.append("")
        L.append("`tokentime summary` over the same database (process wall time, JVM start included): %s."
                 % fmt_s(med(a["summary"])))
        L.append("")
    rp = res.get("report")
    if rp:
        L.append("`tokentime report` over the %s-token database of the ingest benchmark: %s, peak RSS %.0f MB."
                 % (rp["size"], fmt_s(med(rp["report"])), max(rp["report_rss"])))
        L.append("")
    day = res.get("day")
    if day:
        L.append("### A day of traffic: %s tokens, one run of each command" % day["size"])
        L.append("")
        L.append("The per-request form, generated as above; `tokentime ingest`, then `report`, each peer tool's view "
                 "(`tokentime query --format csv VIEW`), `conventions` and `compare c16 c16`, each once.")
        L.append("")
        L.append("| command | wall | peak RSS |")
        L.append("|---|---|---|")
        for x in day["steps"]:
            L.append("| %s | %s | %.0f MB |" % (x["name"], fmt_s(x["wall"]), x["rss_mb"]))
        L.append("")
    s = res.get("script")
    if s:
        py, tt = med(s["py"]), med(s["tt"])
        L.append("### Against a hand-written script, %s tokens (target 3)" % s["size"])
        L.append("")
        L.append("| | wall | peak RSS |")
        L.append("|---|---|---|")
        L.append("| `bench/baselines/ttft_itl.py` (json + lists, no storage) | %s | %.0f MB |" % (fmt_s(py), max(s["py_rss"])))
        L.append("| `tokentime ingest` + `tokentime summary` | %s | %.0f MB |" % (fmt_s(tt), max(s["tt_rss"])))
        L.append("")
        L.append("tokentime is %.1f× faster (target: at least 4×) with %.2f of the script's memory (target: at most 0.25)."
                 % (py / tt, max(s["tt_rss"]) / max(s["py_rss"])))
        L.append("")
    x = res.get("text")
    if x:
        L.append("### Text logs: a vLLM server log, %s tokens (target 4)" % x["size"])
        L.append("")
        L.append("`tokentime generate --form vllm-log`: %.0f MB, %d lines (per-token streaming-delta lines, lifecycle lines, "
                 "engine stats every 10 s)." % (x["mb"], x["lines"]))
        L.append("")
        L.append("| reader | wall | MB/s | lines/s | peak RSS |")
        L.append("|---|---|---|---|---|")
        for k, name in (("tt", "`tokentime ingest` (vllm-log spec: requests, tokens, engine stats into the database)"),
                        ("duckdb", "DuckDB `read_csv` as lines + `regexp_extract` into a table"),
                        ("py", "Python `re`, one regex per line (`bench/baselines/vllm_log_regex.py`)")):
            w = med(x[k])
            L.append("| %s | %s | %.1f | %.0f | %.0f MB |" % (name, fmt_s(w), x["mb"] / w, x["lines"] / w, max(x[k + "_rss"])))
        L.append("")
        tt = med(x["tt"])
        L.append("tokentime %.1f MB/s (goal: at least 150). Baseline wall / tokentime wall (above 1: tokentime ahead; "
                 "target: both): DuckDB %.2f, Python %.2f. Per repetition (tokentime, DuckDB, Python, in that order): %s."
                 % (x["mb"] / tt, med(x["duckdb"]) / tt, med(x["py"]) / tt,
                    "; ".join("%.2f, %.2f, %.2f s" % r for r in zip(x["tt"], x["duckdb"], x["py"]))))
        L.append("")
    ll = res.get("long_line")
    if ll:
        L.append("### A 100 MB line (target 5)")
        L.append("")
        L.append("A %.0f MB file: a good line, one line of 100 MiB, a good line. `tokentime ingest` exit code %d in %s, "
                 "peak RSS %.0f MB, %s; it reported: `%s`" % (
                     ll["mb"], ll["code"], fmt_s(ll["wall"]), ll["rss_mb"],
                     "an OutOfMemoryError" if ll["oom"] else "no OutOfMemoryError", ll["report"]))
        L.append("")
    fl = res.get("files")
    if fl:
        one, par = med(fl["one"]), med(fl["parallel"])
        L.append("### Several files, %s tokens in %d files (target 6)" % (fl["size"], fl["files"]))
        L.append("")
        L.append("`--jobs 1` (one file at a time): %s; default (files in parallel): %s; parallel / one at a time = %.2f×."
                 % (fmt_s(one), fmt_s(par), par / one))
        L.append("")
    if res.get("jmh"):
        L.append("### Parser hot loops (JMH, `bench/jmh`)")
        L.append("")
        L.append("One pass over generated input held in memory, into a sink that only counts (no Arrow, no database); "
                 "1 fork, 3 × 2 s warm-up, 5 × 2 s measurement.")
        L.append("")
        L.append("| benchmark | input | ms per pass (± 99.9 %) | MB/s |")
        L.append("|---|---|---|---|")
        for b in res["jmh"]:
            L.append("| `%s` | %.1f MB | %.1f ± %.1f | %.0f |" % (b["name"], b["mb"], b["ms"], b["err"], b["mb"] / (b["ms"] / 1000)))
        L.append("")
    L.append("Raw timings of every repetition: `target/bench/results.json`.")
    return "\n".join(L)


def write_benchmarks(section):
    path = os.path.join(ROOT, "BENCHMARKS.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + "\n\n## Issue 10 benchmarks (bench/run.py)\n\n" + BEGIN + "\n" + END + "\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + section + "\n" + END + tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1M,10M,50M", help="token counts for the ingest benchmark (default: 1M,10M,50M)")
    ap.add_argument("--forms", default="requests,tokens", help="canonical JSONL forms (default: requests,tokens)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of every measurement (default: 3)")
    ap.add_argument("--tokens-form-max", default="10M",
                    help="largest size for the token-per-line form (80 bytes a token; default: 10M)")
    ap.add_argument("--answer-reps", type=int, help="repetitions of the answer queries (default: --reps)")
    ap.add_argument("--answers-size", help="size for answers and the script comparison (default: the largest)")
    ap.add_argument("--text-size", default="1M", help="tokens in the vLLM log (default: 1M, about 170 MB)")
    ap.add_argument("--only", default="ingest,answers,report,script,text,long-line,files,jmh,day",
                    help="which benchmarks (default: all)")
    ap.add_argument("--day-size", default="200M", help="tokens of the day of traffic (default: 200M, about 4.2 GB)")
    ap.add_argument("--data", default=os.path.join(ROOT, "target", "bench-data"), help="where inputs and databases go")
    ap.add_argument("--no-build", action="store_true", help="use the jar and test classes as they are")
    ap.add_argument("--no-write", action="store_true", help="print the section instead of writing BENCHMARKS.md")
    ap.add_argument("--from-results", metavar="JSON",
                    help="measure nothing: write the section from a results file of an earlier run (complete or not)")
    args = ap.parse_args()
    args.argv = sys.argv[1:]
    if args.from_results:
        with open(args.from_results) as f:
            res = json.load(f)
        args.argv = res.get("argv", args.argv)
        section = report(res, args)
        print(section)
        if not args.no_write:
            write_benchmarks(section)
            log("BENCHMARKS.md updated")
        return
    if not args.no_build:
        log("building (mvn package, tests compiled but not run) ...")
        run(["mvn", "-B", "-q", "-DskipTests", "package"])
    # the launcher records its class archive on its first run after a build (seconds of a training
    # run): done here, so that no timed command pays it
    run([TOKENTIME, "--version"])
    os.makedirs(args.data, exist_ok=True)
    sizes = args.sizes.split(",")
    only = set(args.only.split(","))
    biggest = args.answers_size or max(sizes, key=tokens_of)
    res = {"date": datetime.date.today().isoformat(), "machine": machine(), "reps": args.reps, "ingest": [],
           "argv": args.argv}
    results = os.path.join(ROOT, "target", "bench", "results.json")
    os.makedirs(os.path.dirname(results), exist_ok=True)

    def save(r=res):
        # after every benchmark: a run stopped on a busy machine keeps what it measured
        # (--from-results writes the section from it)
        with open(results, "w") as f:
            json.dump(r, f, indent=1)

    global SAVE
    SAVE = save

    if "ingest" in only or "answers" in only:
        bench_ingest(res, args.data, sizes if "ingest" in only else [biggest],
                     args.forms.split(",") if "ingest" in only else ["requests"], args.reps, args.tokens_form_max)
        save()
    if "answers" in only:
        bench_answers(res, args.data, biggest, args.answer_reps or args.reps)
        save()
    if "report" in only and ("ingest" in only or "answers" in only):
        bench_report(res, args.data, biggest, args.reps)
        save()
    if "script" in only:
        bench_script(res, args.data, biggest, args.reps)
        save()
    if "text" in only:
        bench_text(res, args.data, args.text_size, args.reps)
        save()
    if "long-line" in only:
        bench_long_line(res, args.data)
        save()
    if "files" in only:
        bench_files(res, args.data, "10M" if tokens_of(biggest) >= 10_000_000 else biggest, args.reps)
        save()
    if "jmh" in only:
        bench_jmh(res)
        save()
    if "day" in only:
        bench_day(res, args.data, args.day_size)
        save()
    save()
    section = report(res, args)
    print(section)
    if not args.no_write:
        write_benchmarks(section)
        log("BENCHMARKS.md updated")


if __name__ == "__main__":
    main()
