"""Running one measured command: wall time, CPU time and peak RSS of the whole process tree.

The command's own rusage comes from wait4() on it, which the kernel fills with the process and
every descendant it waited for: for `collect prog`, `perf record prog` and `gprofng collect app
prog` that is the tool plus the target, which is what a user pays. Peak RSS (ru_maxrss) is the
largest of them, as /usr/bin/time -v reports it.
"""
import os
import resource
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Run:
    cmd: list
    wall: float = 0.0        # seconds
    user: float = 0.0        # seconds, process tree
    sys: float = 0.0
    maxrss_kb: int = 0
    rc: int = 0
    timed_out: bool = False
    out: str = ""            # stdout when captured
    err: str = ""            # last lines of stderr
    extra: dict = field(default_factory=dict)

    @property
    def cpu(self):
        return self.user + self.sys

    @property
    def ok(self):
        return self.rc == 0 and not self.timed_out

    def why_failed(self):
        if self.timed_out:
            return "timed out"
        if self.rc < 0:
            return f"killed by signal {-self.rc}"
        tail = self.err.strip().splitlines()[-1:] or [""]
        return f"exit {self.rc}: {tail[0][:120]}"


# The measured command runs in its own session (so a timeout can kill its whole tree); this is
# its process group, for kill_current() when the harness itself is interrupted.
_current_pgid = None


def kill_current():
    if _current_pgid:
        try:
            os.killpg(_current_pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _limits(mem_limit_mb):
    def apply():
        if mem_limit_mb:
            b = mem_limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return apply


def measure(cmd, *, env=None, cwd=None, timeout=None, mem_limit_mb=None, capture=False,
            stdout_path=None, stdin_path=None, scratch="/tmp"):
    """Runs cmd to completion (or kills its process group at timeout) and measures it."""
    out_path = stdout_path or (os.path.join(scratch, f".bench_out_{os.getpid()}") if capture else None)
    err_path = os.path.join(scratch, f".bench_err_{os.getpid()}")
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    r = Run(cmd=[str(c) for c in cmd])
    with open(out_path or os.devnull, "wb") as out, open(err_path, "wb") as err, \
            open(stdin_path or os.devnull, "rb") as inp:
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(r.cmd, stdin=inp, stdout=out, stderr=err, env=full_env, cwd=cwd,
                                 start_new_session=True, preexec_fn=_limits(mem_limit_mb))
        except OSError as e:
            r.rc, r.err = 127, str(e)
            return r
        global _current_pgid
        _current_pgid = p.pid
        timer = None
        if timeout:
            def kill():
                r.timed_out = True
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            timer = threading.Timer(timeout, kill)
            timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        r.wall = time.perf_counter() - t0
        _current_pgid = None
        if timer:
            timer.cancel()
        p.returncode = 0  # reaped by wait4; keep Popen from waiting again
    r.rc = os.waitstatus_to_exitcode(status)
    r.user, r.sys, r.maxrss_kb = ru.ru_utime, ru.ru_stime, ru.ru_maxrss
    with open(err_path, "rb") as f:
        r.err = f.read()[-4000:].decode(errors="replace")
    os.unlink(err_path)
    if capture:
        with open(out_path, "rb") as f:
            r.out = f.read().decode(errors="replace")
        if not stdout_path:
            os.unlink(out_path)
    return r


def text(cmd, *, timeout=120, env=None, cwd=None):
    """stdout of a helper command (parsing results); "" when it fails."""
    try:
        p = subprocess.run([str(c) for c in cmd], capture_output=True, timeout=timeout, env=env, cwd=cwd)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.decode(errors="replace")


def tree_bytes(path):
    """Apparent size of a file or of a directory tree, in bytes."""
    if not os.path.exists(path):
        return 0
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            fp = os.path.join(root, f)
            if not os.path.islink(fp):
                total += os.path.getsize(fp)
    return total
