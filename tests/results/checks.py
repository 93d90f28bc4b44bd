"""What the experiment tests share: named checks that are counted, and a
run of an experiment's script with the ssdlab under test."""
import subprocess


class Checks:
    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        self.failures += not ok

    def status(self):
        return 1 if self.failures else 0


def run_script(script, args, ssdlab, source, jobs=2):
    """Runs SOURCE/script with args from SOURCE, printing its output; the
    completed process."""
    run = subprocess.run([str(source / script)] + list(args), env={"SSDLAB": ssdlab, "PATH": "/usr/bin:/bin", "JOBS": str(jobs)},
                         capture_output=True, text=True, cwd=source)
    print(run.stdout + run.stderr)
    return run
