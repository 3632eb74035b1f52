#!/usr/bin/env python3
"""The analyzer's first screen and its clicks while prewarming runs (docs/performance.md,
section 10), without a browser: the page's own requests, in the page's order, over HTTP.

  bench/analyzer/clicks.py ANALYZER EXPERIMENT [LABEL]

Starts `ANALYZER --no-browser EXPERIMENT`, then as the page does: the page (index.html), the
first screen's requests (info, collect/initial, filters, functions), and at once, while the
server is still prewarming, a user's clicks one after the other: the cheap tabs Statistics
and Experiments, a function's Summary, then the tabs Callers-Callees, Call Tree, Source,
Lines, Disassembly, PCs. Prints one
markdown table row per step: its wall time in ms (request sent to answer read). Wall times:
compare them only between runs on the same machine at the same load.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request


def main():
    analyzer, experiment = sys.argv[1], os.path.abspath(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else os.path.basename(analyzer)
    cwd = tempfile.mkdtemp(prefix='erkit-clicks-')
    t0 = time.monotonic()
    proc = subprocess.Popen([analyzer, '--no-browser', experiment], cwd=cwd, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r'analyzer: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+))', line)
        if not m:
            sys.exit(f'no URL from the analyzer: {line!r}')
        port, token = m.group(2), m.group(3)
        steps = [('URL printed', (time.monotonic() - t0) * 1000)]

        def get(path):
            req = urllib.request.Request(f'http://127.0.0.1:{port}{path}',
                                         headers={'X-Erkit-Token': token, 'Host': f'127.0.0.1:{port}'})
            s = time.monotonic()
            with urllib.request.urlopen(req, timeout=600) as r:
                body = r.read()
            return body, (time.monotonic() - s) * 1000

        get(f'/?token={token}')
        for path in ['/api/info', '/api/collect/initial', '/api/run?c=filters', '/api/run?c=functions']:
            body, _ = get(path)
        steps.append(('start to first screen (its requests answered)', (time.monotonic() - t0) * 1000))
        rows = json.loads(body)[0]['data']['rows']
        fn = rows[1]['id']  # the hottest function after <Total>
        # First two cheap tabs (their reports take milliseconds): what a click costs when it
        # must not wait behind a prewarm report; then the tabs with a report of their own.
        clicks = [('tab Statistics (cheap)', '/api/run?c=statistics'),
                  ('tab Experiments (cheap)', '/api/run?c=header&c=objects'),
                  ('select a function (Summary)', f'/api/fn?cmd=fsingle&id={fn}'),
                  ('tab Callers-Callees', f'/api/fn?cmd=csingle&id={fn}'),
                  ('tab Call Tree', '/api/calltree?nodes=20000'),
                  ('tab Source', f'/api/fn?cmd=source&id={fn}'),
                  ('tab Lines', '/api/run?c=lines'),
                  ('tab Disassembly', f'/api/fn?cmd=disasm&id={fn}'),
                  ('tab PCs', '/api/run?c=pcs')]
        for what, path in clicks:
            _, ms = get(path)
            steps.append((what, ms))
        info = json.loads(get('/api/info')[0])
        print(f'| step ({label}) | ms |')
        print('|---|---:|')
        for what, ms in steps:
            print(f'| {what} | {ms:.0f} |')
        print(f'\nserver: load {info.get("load_seconds")} s ({info.get("load_cpu_seconds")} CPU s), '
              f'functions {info.get("functions_seconds")} s ({info.get("functions_cpu_seconds")} CPU s), '
              f'prewarmed {info.get("prewarmed")}, prewarm_kept {info.get("prewarm_kept", "-")}, '
              f'swaps {info.get("prewarm_swaps", "-")}, builds skipped {info.get("prewarm_build_skips", "-")}, '
              f'page waited for a build {info.get("page_build_waits", "-")}')
    finally:
        proc.terminate()
        proc.wait()


if __name__ == '__main__':
    main()
