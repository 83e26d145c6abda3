"""CPU and memory of a whole process tree (Python, the Playwright driver, every Chromium process).

Why not ``getrusage``: Chromium's renderers are children of its zygote, which never waits for
them, so their CPU never reaches the crawler's rusage (it undercounts by about 2x here). And
summed RSS counts the shared pages of Chromium's processes once per process (2-3x too high). So
a thread reads /proc every ~100 ms: for each process in the tree, utime+stime from
``/proc/<pid>/stat`` (the maximum seen per process, since processes exit and take their counters
with them) and PSS from ``/proc/<pid>/smaps_rollup`` (summed over the tree; the peak of the sums
is reported).
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[int, int, int] | None:
    """(ppid, start time, utime+stime ticks) of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses: split after the last ')'.
    rest = data[data.rfind(b")") + 2 :].split()
    return int(rest[1]), int(rest[19]), int(rest[11]) + int(rest[12])


_PROVISIONAL = {"?", "sh", "exe", "chromium-zygote"}


def _kind(pid: int) -> str:
    """A short name for what a process is: python, node (Playwright's driver), chromium-<type>.

    Chromium rewrites its renderers' command lines into one space-separated string, so the
    ``--type=`` flag is searched in the whole line rather than per argument.
    """
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            line = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"
    exe = os.path.basename(line.split(" ", 1)[0]) if line else "?"
    if "chrom" in exe or exe == "exe":
        m = re.search(r"--type=(\S+)", line)
        return f"chromium-{m.group(1)}" if m else "chromium-browser"
    return "python" if exe.startswith("python") else exe or "?"


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


@dataclass
class TreeSample:
    """What the sampler found over the life of the tree."""

    cpu_seconds: float = 0.0
    peak_pss_mib: float = 0.0
    peak_processes: int = 0
    samples: int = 0
    per_process_cpu: dict[tuple[int, int], float] = field(default_factory=dict)
    cpu_by_kind: dict[str, float] = field(default_factory=dict)
    peak_pss_by_kind: dict[str, float] = field(default_factory=dict)  # MiB, in the peak sample


class TreeSampler(threading.Thread):
    """Samples the tree rooted at ``root_pid`` until :meth:`stop`."""

    def __init__(self, root_pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True, name="bench-sampler")
        self.root = root_pid
        self.interval = interval
        self._stop_event = threading.Event()
        self._cpu: dict[tuple[int, int], int] = {}
        self._kinds: dict[tuple[int, int], str] = {}
        self._peak_pss = 0
        self._peak_by_kind: dict[str, int] = {}
        self._peak_procs = 0
        self._samples = 0

    def _tree(self) -> dict[int, tuple[int, int]]:
        """pid -> (start time, cpu ticks) for the root and all its descendants."""
        info: dict[int, tuple[int, int, int]] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                st = _stat(name)
                if st is not None:
                    info[int(name)] = st
        children: dict[int, list[int]] = {}
        for pid, (ppid, _, _) in info.items():
            children.setdefault(ppid, []).append(pid)
        out: dict[int, tuple[int, int]] = {}
        todo = [self.root] if self.root in info else []
        while todo:
            pid = todo.pop()
            out[pid] = (info[pid][1], info[pid][2])
            todo.extend(children.get(pid, ()))
        return out

    def sample(self) -> None:
        tree = self._tree()
        pss = 0
        by_kind: dict[str, int] = {}
        for pid, (start, ticks) in tree.items():
            key = (pid, start)
            if ticks > self._cpu.get(key, -1):
                self._cpu[key] = ticks
            kind = self._kinds.get(key, "?")
            if kind in _PROVISIONAL or (kind == "python" and pid != self.root):
                # Seen between fork and exec (a child still looks like its parent, chromium starts
                # as its /bin/sh wrapper): look again.
                self._kinds[key] = _kind(pid)
            kib = _pss_kib(pid)
            pss += kib
            kind = self._kinds.get(key, "?")
            by_kind[kind] = by_kind.get(kind, 0) + kib
        if pss > self._peak_pss:
            self._peak_pss = pss
            self._peak_by_kind = by_kind
        self._peak_procs = max(self._peak_procs, len(tree))
        self._samples += 1

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self) -> TreeSample:
        self._stop_event.set()
        self.join()
        self.sample()  # the root is still a zombie here (see the bench's wait), so its CPU is readable
        by_kind: dict[str, float] = {}
        for key, ticks in self._cpu.items():
            kind = self._kinds.get(key, "?")
            by_kind[kind] = by_kind.get(kind, 0.0) + ticks / _TICK
        return TreeSample(
            cpu_seconds=sum(self._cpu.values()) / _TICK,
            peak_pss_mib=self._peak_pss / 1024,
            peak_processes=self._peak_procs,
            samples=self._samples,
            per_process_cpu={k: v / _TICK for k, v in self._cpu.items()},
            cpu_by_kind=by_kind,
            peak_pss_by_kind={k: v / 1024 for k, v in self._peak_by_kind.items()},
        )
