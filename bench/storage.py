#!/usr/bin/env python3
"""Storage module benchmark (issue 15): storage.set + storage.get against two echo calls of the
same value, and 10 000 keys written by one hybrid-run process, then read back by a fresh one.

usage: python3 bench/storage.py [--binary PATH] [--n ROUNDS] [--count KEYS] [--json]

Runs pages/bench/storage.html under hybrid-run (release build by default: .build/release/hybrid-run)
with --modules storage --data-dir TMP. Starts one Xvfb when DISPLAY is unset. Prints a table (or one
JSON object with --json) with each figure and the ratio set+get / echo+echo measured in the same run.
Exits 1 when a phase fails.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_display():
    if os.environ.get('DISPLAY'):
        return None
    for number in range(90, 140):
        if not os.path.exists('/tmp/.X11-unix/X%d' % number):
            xvfb = subprocess.Popen(['Xvfb', ':%d' % number, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if os.path.exists('/tmp/.X11-unix/X%d' % number):
                    os.environ['DISPLAY'] = ':%d' % number
                    return xvfb
                time.sleep(0.05)
            xvfb.kill()
    sys.exit('storage.py: could not start Xvfb')


def run_phase(binary, data_dir, query):
    env = dict(os.environ, WEBKIT_A11Y_BUS_ADDRESS='', GDK_BACKEND='x11')
    url = 'pages/bench/storage.html?' + query
    started = time.perf_counter()
    done = subprocess.run([binary, '--url', url, '--modules', 'storage', '--data-dir', data_dir, '--pool', '0',
                           '--exit-after', 'close', '--timeout', '600'], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    line = next((l for l in done.stdout.splitlines() if 'BENCH ' in l), None)
    if done.returncode != 0 or line is None:
        sys.exit('storage.py: phase %s failed (exit %d): %s' % (query, done.returncode, done.stderr.strip()[-2000:]))
    result = json.loads(line[line.index('BENCH ') + 6:])
    if 'error' in result:
        sys.exit('storage.py: phase %s failed: %s' % (query, result['error']))
    result['process_s'] = round(wall, 2)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build', 'release', 'hybrid-run'))
    parser.add_argument('--n', type=int, default=2000)
    parser.add_argument('--count', type=int, default=10000)
    parser.add_argument('--json', action='store_true')
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit('storage.py: %s not found (swift build -c release)' % args.binary)
    xvfb = start_display()
    data_dir = tempfile.mkdtemp(prefix='hybridshell-bench-storage-')
    try:
        roundtrip = run_phase(args.binary, data_dir, 'phase=roundtrip&n=%d' % args.n)
        write = run_phase(args.binary, data_dir, 'phase=write&count=%d' % args.count)
        read = run_phase(args.binary, data_dir, 'phase=read&count=%d' % args.count)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
        if xvfb:
            xvfb.kill()
    result = {'roundtrip': roundtrip, 'write': write, 'read': read}
    for size in ('small', 'large'):
        result['%s_ratio' % size] = round(roundtrip['%s_set_get_us' % size] / roundtrip['%s_echo_echo_us' % size], 3)
    if args.json:
        print(json.dumps(result))
        return
    print('storage.set + storage.get vs echo + echo (same value, %d rounds each, interleaved):' % args.n)
    for size in ('small', 'large'):
        print('  %-5s %6d B   set+get %8.1f us   echo+echo %8.1f us   ratio %.2f' % (
            size, roundtrip['%s_bytes' % size], roundtrip['%s_set_get_us' % size], roundtrip['%s_echo_echo_us' % size],
            result['%s_ratio' % size]))
    print('%d keys written: %d ms in the page (%.2f s process); read back by a new process: %d ms (%.2f s process), %d of %d intact' % (
        write['count'], write['write_ms'], write['process_s'], read['read_ms'], read['process_s'], read['intact'], read['count']))


if __name__ == '__main__':
    main()
