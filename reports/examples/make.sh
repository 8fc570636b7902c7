#!/usr/bin/env bash
# Regenerates the example reports of the bundled samples (README, "Reports"): the HTML report,
# the Markdown report with its SVG charts, and a screenshot of the HTML report taken by headless
# Chromium with the network disabled, as ReportIT does.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./tokentime ingest --db "$tmp/samples.duckdb" sample-logs/
./tokentime report --db "$tmp/samples.duckdb" -o reports/examples/samples.html
rm -rf reports/examples/samples-charts
./tokentime report --db "$tmp/samples.duckdb" --format markdown --charts svg -o reports/examples/samples.md
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$tmp/profile" \
  --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=http://127.0.0.1:9 --hide-scrollbars \
  --window-size=1280,2300 --virtual-time-budget=8000 \
  --screenshot="$PWD/reports/examples/samples.png" "file://$PWD/reports/examples/samples.html" 2>/dev/null
