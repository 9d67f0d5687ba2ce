import subprocess, sys, time
eng, depth, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fens = [l.split(' ce ')[0].strip().rstrip(';') for l in open('/work/main/fixtures/openings/normal.epd') if l.strip() and not l.startswith('#')][:n]
def run(cores):
    p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    send("xboard"); send("protover 2")
    while "done=1" not in p.stdout.readline(): pass
    send(f"cores {cores}"); send("post")
    tot = 0
    for f in fens:
        send("new"); send("force"); send("setboard " + " ".join(f.split()[:4]) + " 0 1"); send(f"sd {depth}")
        t0 = time.perf_counter(); send("go")
        while True:
            l = p.stdout.readline()
            if l.startswith("move "): break
        tot += time.perf_counter() - t0
    send("quit"); p.wait()
    return tot
for c in (1, 2, 1, 2):
    print(f"cores {c}: {run(c):.2f} s", flush=True)
