"""A UCI engine driven over its pipes, for the measuring scripts beside it."""
import subprocess


class Engine:
    """Starts `path`, says `uci` and sets `options` (name -> value), then waits until ready."""

    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        """The lines up to and including the first that starts with `token`."""
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine died")
            out.append(line.strip())
            if line.startswith(token):
                return out

    def quit(self):
        self.send("quit")
        self.p.wait()
