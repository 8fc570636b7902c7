#!/usr/bin/env python3
"""Writes the JSON documents of this folder from the CSV downloads beside it (../csv-exports):
the same real lines and made-up times, in the shapes of each platform's JSON output."""
import csv, datetime, hashlib, json, pathlib

here = pathlib.Path(__file__).parent
csvs = here.parent / "csv-exports"

def rows(name):
    with open(csvs / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))

# aws logs filter-log-events --output json (the AWS CLI indents by 4)
ev = []
for i, r in enumerate(rows("cloudwatch-console-requests-500s.csv")):
    ms = int(r["timestamp"])
    ev.append({"logStreamName": "AllTraffic/i-0f1e2d3c4b5a69788", "timestamp": ms, "message": r["message"],
               "ingestionTime": ms + 412,
               "eventId": str(38000000000000000000000000000000000000000000000000000000 + i * 7919)})
doc = {"events": ev, "searchedLogStreams": [], "nextToken": "Bxkq6kVGFtq2y_MoigeqscPOdhXVbhiVtLoAmXb5jCrI2Yf5ZQ0WUe2ZPyQCt1YdNqaqnqeEbpeH6"}
(here / "filter-log-events-requests-500s.json").write_text(json.dumps(doc, indent=4) + "\n", encoding="utf-8")
# the same document as `jq -c` leaves it: one line
(here / "filter-log-events-one-line.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")

# aws logs get-query-results (Logs Insights): rows of {field, value}
res = []
for i, r in enumerate(rows("logs-insights-stats-two-columns-after.csv")):
    res.append([{"field": "@timestamp", "value": r["@timestamp"]}, {"field": "@message", "value": r["@message"]},
                {"field": "@logStream", "value": r["@logStream"]}, {"field": "@log", "value": r["@log"]},
                {"field": "@ptr", "value": hashlib.sha1(str(i).encode()).hexdigest()}])
doc = {"results": res, "statistics": {"recordsMatched": float(len(res)), "recordsScanned": 5120.0,
       "bytesScanned": 1693211.0}, "status": "Complete"}
(here / "get-query-results-stats.json").write_text(json.dumps(doc, indent=4) + "\n", encoding="utf-8")

# gcloud logging read --format=json: a list of LogEntry, keys sorted, indented by 2
ent = []
for i, r in enumerate(rows("logs-insights-stats-two-columns-after.csv")):
    t = datetime.datetime.strptime(r["@timestamp"], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
    ts = t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "412Z"
    ent.append({"insertId": "%016x" % (0x5d1a7c3e9b2f4000 + i), "labels": {"compute.googleapis.com/resource_name":
                "gke-inference-pool-1-3c9a1f2e-x7kq", "k8s-pod/app": "vllm"},
                "logName": "projects/demo-project/logs/stdout", "receiveTimestamp": ts,
                "resource": {"labels": {"cluster_name": "inference", "container_name": "vllm", "location": "us-central1",
                             "namespace_name": "default", "pod_name": "vllm-qwen-7d9c5b6f4-2xkpl", "project_id": "demo-project"},
                             "type": "k8s_container"},
                "severity": "INFO", "textPayload": r["@message"], "timestamp": ts})
(here / "gcloud-logging-read-stats.json").write_text(json.dumps(ent, indent=2, sort_keys=True) + "\n", encoding="utf-8")
