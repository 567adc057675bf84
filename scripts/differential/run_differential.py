#!/usr/bin/env python3
"""Differential test of `stores hours --batch` against opening-hours-py (the oracle).

Builds (expression, zone, country, instant) cases from the shared corpus, the bundled store
data and a seeded generator over the whole opening_hours syntax, feeds the same JSON lines to
`stores hours --batch` (one subprocess) and to the oracle, and compares state, comment and
next_change (as instants). Known, documented semantic differences are absorbed by an explicit
allow-list (ALLOW_LIST below; each entry is a narrow predicate with a reason).

Disagreements that remain are known (listed with a reason in known_differences.json beside this
script) or new (printed in full).

Exit status: 0 when agreement after the allow-list is >= 99.9 % and no oracle-accepted
expression is rejected by us; 1 otherwise; 2 when it cannot run.
The last line is always `differential: PASSED|FAILED: …` with the counts.

See scripts/differential/README.md.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Optional
from zoneinfo import ZoneInfo

try:
    from opening_hours import OpeningHours, ParserError, State
except ImportError:  # pragma: no cover
    print("opening-hours-py is missing: pip install -r scripts/differential/requirements.txt",
          file=sys.stderr)
    print("differential: FAILED: opening-hours-py is missing")
    sys.exit(2)

try:
    from opening_hours import UnknownCountryError
except ImportError:  # pragma: no cover
    UnknownCountryError = ValueError  # type: ignore

REPO = Path(__file__).resolve().parents[2]
UTC = timezone.utc
HORIZON_DAYS = 400
THRESHOLD = 99.9
KNOWN_DIFFERENCES = Path(__file__).resolve().parent / "known_differences.json"

# The zones every generated expression is spread over, with the country whose holidays PH means.
ZONES = [
    ("Europe/Berlin", "DE"),
    ("America/New_York", "US"),
    ("Australia/Sydney", "AU"),        # southern hemisphere DST
    ("America/Sao_Paulo", "BR"),       # no DST since 2019
    ("Asia/Tokyo", "JP"),              # no DST
    ("Australia/Lord_Howe", "AU"),     # 30-minute DST shift
    ("Pacific/Auckland", "NZ"),
]
RANGE_START = datetime(2026, 1, 1, tzinfo=UTC)
RANGE_END = datetime(2028, 1, 1, tzinfo=UTC)

STATE_NAMES = {State.OPEN: "open", State.CLOSED: "closed", State.UNKNOWN: "unknown"}


# --------------------------------------------------------------------------------------------
# Time zone helpers

@dataclass(frozen=True)
class Transition:
    at: datetime          # first instant with the new offset (UTC)
    before: timedelta     # UTC offset before
    after: timedelta      # UTC offset after

    @property
    def fall_back(self) -> bool:
        return self.after < self.before

    @property
    def delta(self) -> timedelta:
        return abs(self.before - self.after)


_TRANSITIONS: dict[str, list[Transition]] = {}


def transitions(tz: str) -> list[Transition]:
    """Offset changes of `tz` in 2026-2027 (found by a 15-minute scan, then bisected)."""
    if tz in _TRANSITIONS:
        return _TRANSITIONS[tz]
    z = ZoneInfo(tz)
    out: list[Transition] = []
    t = RANGE_START - timedelta(days=1)
    step = timedelta(hours=6)
    prev = t.astimezone(z).utcoffset()
    while t < RANGE_END + timedelta(days=1):
        n = t + step
        off = n.astimezone(z).utcoffset()
        if off != prev:
            lo, hi = t, n
            while hi - lo > timedelta(minutes=1):
                mid = lo + (hi - lo) / 2
                mid = mid.replace(second=0, microsecond=0)
                if mid <= lo:
                    break
                if mid.astimezone(z).utcoffset() == prev:
                    lo = mid
                else:
                    hi = mid
            out.append(Transition(hi, prev, off))
            prev = off
        t = n
    _TRANSITIONS[tz] = out
    return out


def fall_back_window(tz: str, instant: datetime) -> Optional[Transition]:
    """The fall-back transition whose repeated wall-clock period contains `instant`, if any
    (instants in [T - delta, T + delta) have a wall time that exists twice)."""
    for tr in transitions(tz):
        if tr.fall_back and tr.at - tr.delta <= instant < tr.at + tr.delta:
            return tr
    return None


def near_fall_back(tz: str, instant: datetime) -> Optional[Transition]:
    """Like fall_back_window but the end is inclusive (a change exactly at T + delta)."""
    for tr in transitions(tz):
        if tr.fall_back and tr.at - tr.delta <= instant <= tr.at + tr.delta:
            return tr
    return None


def to_wall(instant: datetime, tz: str) -> datetime:
    """The naive wall-clock time of `instant` in `tz` (what the oracle reads)."""
    return instant.astimezone(ZoneInfo(tz)).replace(tzinfo=None, fold=0)


def wall_to_instant(wall: datetime, tz: str) -> Optional[datetime]:
    """A wall time to an instant (first occurrence); None when the wall time does not exist."""
    z = ZoneInfo(tz)
    aware = wall.replace(tzinfo=z, fold=0)
    u = aware.astimezone(UTC)
    if u.astimezone(z).replace(tzinfo=None) != wall.replace(fold=0):
        return None
    return u


def iso_z(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------------------------
# Holidays (ours: Data/holidays; oracle: probed with the expression `PH`)

_OUR_HOLIDAYS: dict[str, set[date]] = {}
_ORACLE_HOLIDAYS: dict[tuple[str, str], set[date]] = {}


def our_holidays(cc: Optional[str]) -> set[date]:
    if not cc:
        return set()
    cc = cc.split("-")[0].upper()
    if cc not in _OUR_HOLIDAYS:
        days: set[date] = set()
        p = REPO / "Data" / "holidays" / f"{cc}.json"
        if p.exists():
            data = json.loads(p.read_text())
            for d in data.get("national", {}):
                days.add(date.fromisoformat(d))
        _OUR_HOLIDAYS[cc] = days
    return _OUR_HOLIDAYS[cc]


def oracle_holidays(tz: str, cc: Optional[str]) -> set[date]:
    key = (tz, cc or "")
    if key in _ORACLE_HOLIDAYS:
        return _ORACLE_HOLIDAYS[key]
    days: set[date] = set()
    if cc:
        try:
            oh = make_oracle("PH", tz, cc)
            d = date(2025, 12, 1)
            while d < date(2028, 2, 1):   # state at noon of each day: exact, and cheap
                if oh.state(datetime(d.year, d.month, d.day, 12, 0))[0] == State.OPEN:
                    days.add(d)
                d += timedelta(days=1)
        except Exception:
            pass
    _ORACLE_HOLIDAYS[key] = days
    return days


def holiday_diff(tz: str, cc: Optional[str]) -> set[date]:
    ours = {d for d in our_holidays(cc) if date(2025, 12, 1) <= d < date(2028, 2, 1)}
    return ours ^ oracle_holidays(tz, cc)


# --------------------------------------------------------------------------------------------
# Oracle

_ORACLE_CACHE: dict[tuple[str, str, str], object] = {}


def make_oracle(expr: str, tz: str, cc: Optional[str]):
    return OpeningHours(expr, timezone=ZoneInfo(tz), country=cc or None, auto_country=False,
                        auto_timezone=False, max_interval_days=HORIZON_DAYS)


def oracle_for(expr: str, tz: str, cc: Optional[str]):
    """Parsed oracle value, or an exception instance when the oracle refuses it. A country the
    oracle does not know is left out when the expression does not use PH (the country only
    matters for PH); with PH the pair is skipped."""
    key = (expr, tz, cc or "")
    if key not in _ORACLE_CACHE:
        try:
            _ORACLE_CACHE[key] = make_oracle(expr, tz, cc)
        except UnknownCountryError as e:
            if re.search(r"\bPH\b", expr):
                _ORACLE_CACHE[key] = e
            else:
                try:
                    _ORACLE_CACHE[key] = make_oracle(expr, tz, None)
                except Exception as e2:
                    _ORACLE_CACHE[key] = e2
        except Exception as e:  # ParserError, ...
            _ORACLE_CACHE[key] = e
    return _ORACLE_CACHE[key]


@dataclass
class Answer:
    state: Optional[str] = None
    comment: Optional[str] = None
    next_change: Optional[datetime] = None   # aware, UTC
    nc_text: Optional[str] = None            # as given (for printing)
    error: Optional[str] = None

    def show(self) -> str:
        if self.error:
            return f"error: {self.error}"
        c = f" {self.comment!r}" if self.comment else ""
        return f"{self.state}{c}, next {self.nc_text or 'null'}"


def ask_oracle(case: "Case") -> Answer:
    oh = oracle_for(case.expr, case.tz, case.cc)
    wall = to_wall(case.at, case.tz)
    st, comment = oh.state(wall)
    nc = oh.next_change(wall)
    a = Answer(state=STATE_NAMES[st], comment=comment or None)
    if nc is not None:
        if nc.tzinfo is None:
            nc = nc.replace(tzinfo=ZoneInfo(case.tz))
        a.next_change = nc.astimezone(UTC)
        a.nc_text = nc.isoformat() + (" (2nd)" if nc.fold else "")
    return a


# --------------------------------------------------------------------------------------------
# Cases

@dataclass
class Case:
    id: int
    expr: str
    tz: str
    cc: Optional[str]
    at: datetime      # aware UTC
    source: str

    def line(self) -> str:
        return json.dumps({"id": self.id, "oh": self.expr, "tz": self.tz, "country": self.cc,
                           "at": iso_z(self.at), "ops": ["state", "next_change"]},
                          ensure_ascii=False)


TIME_RE = re.compile(r"(?<![\d:])(\d{2}):(\d{2})(?![\d])")
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
DATE_RE = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})\b")
EASTER = {2026: date(2026, 4, 5), 2027: date(2027, 3, 28)}


def interesting_times(expr: str) -> list[tuple[int, int]]:
    """Wall times worth hitting exactly: each HH:MM in the expression, a minute before and
    after, and midnight. Times past 24:00 fold back onto the clock."""
    out = {(0, 0), (0, 1), (23, 59), (12, 0)}
    for h, m in TIME_RE.findall(expr):
        mins = (int(h) * 60 + int(m)) % (24 * 60)
        for d in (-1, 0, 1):
            v = (mins + d) % (24 * 60)
            out.add(divmod(v, 60))
    return sorted(out)


def interesting_dates(expr: str, tz: str, cc: Optional[str], rng: random.Random) -> list[date]:
    out: list[date] = []
    for mon, day in DATE_RE.findall(expr):
        for y in (2026, 2027):
            try:
                d = date(y, MONTHS.index(mon) + 1, int(day))
            except ValueError:
                continue
            out += [d - timedelta(days=1), d, d + timedelta(days=1)]
    if "easter" in expr:
        for e in EASTER.values():
            out += [e + timedelta(days=k) for k in range(-3, 3)]
    if "PH" in expr:
        hol = sorted(d for d in (our_holidays(cc) | oracle_holidays(tz, cc))
                     if 2026 <= d.year <= 2027)
        if hol:
            for d in rng.sample(hol, min(8, len(hol))):
                out += [d - timedelta(days=1), d, d + timedelta(days=1)]
    if re.search(r"\[-?\d", expr):
        for _ in range(4):   # last/first weeks of a month
            y, m = rng.choice((2026, 2027)), rng.randint(1, 12)
            out.append(date(y, m, rng.choice((1, 2, 3, 7, 8, 14, 15, 22, 25, 28))))
    return out


def instants_for(expr: str, tz: str, cc: Optional[str], rng: random.Random, n_random: int,
                 n_boundary: int, n_transitions: int) -> list[datetime]:
    span = int((RANGE_END - RANGE_START).total_seconds() // 60)
    out: list[datetime] = []
    for _ in range(n_random):
        out.append(RANGE_START + timedelta(minutes=rng.randrange(span)))
    times = interesting_times(expr)
    dates = interesting_dates(expr, tz, cc, rng)
    for i in range(n_boundary + len(dates)):
        if i < len(dates):
            d = dates[i]
        else:
            d = (RANGE_START + timedelta(days=rng.randrange(730))).date()
        h, m = rng.choice(times)
        inst = wall_to_instant(datetime(d.year, d.month, d.day, h, m), tz)
        if inst is not None and RANGE_START <= inst < RANGE_END:
            out.append(inst)
    trs = transitions(tz)
    if trs and n_transitions:
        for tr in rng.sample(trs, min(n_transitions, len(trs))):
            for k in range(-12, 13):   # every 15 minutes for +-3 hours
                out.append(tr.at + timedelta(minutes=15 * k))
    return sorted(set(out))


def read_lines(path: Path) -> list[str]:
    """Non-empty lines; `#` lines are the files' own comments (commented-out examples)."""
    if not path.exists():
        return []
    return [l.strip() for l in path.read_text(encoding="utf-8").splitlines()
            if l.strip() and not l.lstrip().startswith("#")]


# ---- generator ------------------------------------------------------------------------------

def hhmm(mins: int) -> str:
    return f"{mins // 60:02d}:{mins % 60:02d}"


def gen_span(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.12:   # overnight
        a = rng.choice([18, 19, 20, 21, 22, 23]) * 60 + rng.choice([0, 0, 30])
        b = rng.choice([1, 2, 3, 4, 5]) * 60 + rng.choice([0, 0, 30])
        return f"{hhmm(a)}-{hhmm(b)}"
    if r < 0.18:   # to 24:00 or from 00:00
        return rng.choice([f"{hhmm(rng.randrange(6, 20) * 60)}-24:00",
                           f"00:00-{hhmm(rng.randrange(1, 12) * 60)}", "00:00-24:00"])
    if r < 0.22:   # past midnight beyond 24:00
        a = rng.randrange(16, 23) * 60
        return f"{hhmm(a)}-{rng.choice(['25:00', '26:30', '28:00'])}"
    if r < 0.26:   # open end
        a = rng.randrange(6, 22) * 60 + rng.choice([0, 30])
        return rng.choice([f"{hhmm(a)}+", f"{hhmm(a)}-{hhmm(min(a + 240, 23 * 60))}+"])
    a = rng.randrange(0, 22 * 60, 15)
    b = rng.randrange(a + 15, 24 * 60 + 1, 15)
    return f"{hhmm(a)}-{hhmm(b)}"


def gen_times(rng: random.Random) -> str:
    n = rng.choice([1, 1, 1, 2, 2, 3])
    if n == 1:
        return gen_span(rng)
    # several ordered, non-overlapping spans in one day
    cuts = sorted(rng.sample(range(1, 95), 2 * n))
    return ",".join(f"{hhmm(cuts[2 * i] * 15)}-{hhmm(cuts[2 * i + 1] * 15)}" for i in range(n))


def gen_weekdays(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:
        return rng.choice(DAYS)
    if r < 0.55:   # range, sometimes wrapping
        a, b = rng.randrange(7), rng.randrange(7)
        return DAYS[a] if a == b else f"{DAYS[a]}-{DAYS[b]}"
    if r < 0.7:    # list
        return ",".join(DAYS[i] for i in sorted(rng.sample(range(7), rng.randint(2, 4))))
    if r < 0.78:   # range and a day
        a = rng.randrange(5)
        return f"{DAYS[a]}-{DAYS[a + 2]},{DAYS[(a + 4) % 7]}"
    if r < 0.9:    # nth weekday
        d = rng.choice(DAYS)
        return d + rng.choice(["[1]", "[2]", "[-1]", "[1,3]", "[2-3]", "[-1]", "[4]"])
    return rng.choice(["PH", "Su,PH", "PH,Sa", "Mo-Fr,PH"])


def gen_wide(rng: random.Random) -> str:
    """A wide-range selector (years, months, dates, weeks, easter) ending in a space."""
    m = lambda: rng.choice(MONTHS)
    r = rng.random()
    if r < 0.12:
        return rng.choice(["2026", "2027", "2026-2027", "2027+", "2026,2027", "2025-2029/2"]) + " "
    if r < 0.3:
        a, b = rng.randrange(12), rng.randrange(12)
        return (MONTHS[a] if a == b else f"{MONTHS[a]}-{MONTHS[b]}") + " "
    if r < 0.48:
        mon = m()
        d = rng.randint(1, 28)
        return rng.choice([f"{mon} {d:02d}", f"{mon} {d:02d}-{min(d + rng.randint(1, 5), 28):02d}",
                           f"{mon} {d:02d}-{m()} {rng.randint(1, 28):02d}"]) + " "
    if r < 0.6:
        y = rng.choice([2026, 2027])
        return rng.choice([f"{y} {m()} {rng.randint(1, 28):02d}",
                           f"2026 {m()} {rng.randint(1, 28):02d}-2027 {m()} {rng.randint(1, 28):02d}",
                           f"{y} {m()}", f"{y} {m()}-{m()}"]) + " "
    if r < 0.72:
        return rng.choice(["easter", "easter -2 days", "easter +1 day", "easter +39 days",
                           "easter +49 days"]) + " "
    if r < 0.86:
        a = rng.randint(1, 50)
        return rng.choice([f"week {a:02d}", f"week {a:02d}-{min(a + rng.randint(1, 10), 53):02d}",
                           "week 01-53/2", "week 02-52/2", f"week {a:02d}-{min(a + 20, 53):02d}/3"]) + " "
    return rng.choice(["Dec 24-Jan 02", "Nov-Feb", "Mar Su[-1]-Oct Su[-1]", "Dec 25,Dec 26",
                       "Jan 01", "Dec 31"]) + " "


def gen_state(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.7:
        return ""
    return " " + rng.choice(["off", "closed", "unknown", '"on appointment"', 'off "holiday"',
                             'unknown "call us"', "open", '"seasonal"'])


def gen_rule(rng: random.Random, first: bool) -> str:
    r = rng.random()
    if r < 0.05:
        return "24/7" + rng.choice(["", "", " closed", ' "always"'])
    if r < 0.1:
        return rng.choice(["PH off", "PH closed", 'PH off "public holiday"', "PH 10:00-14:00",
                           "PH +1 day off", "PH -1 day 10:00-14:00", "Su PH off", "PH Su 11:00-13:00",
                           "SH off"])
    wide = gen_wide(rng) if rng.random() < 0.3 else ""
    wd = gen_weekdays(rng) + " " if (rng.random() < 0.85 or not wide) else ""
    st = gen_state(rng)
    if st.strip().split(" ")[0] in ("off", "closed") or (st and rng.random() < 0.4):
        body = (wide + wd).strip() + st
        return body.strip() or "off"
    times = gen_times(rng)
    return (wide + wd + times + st).strip()


def gen_expression(rng: random.Random) -> str:
    n = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    rules = [gen_rule(rng, True)]
    for _ in range(n - 1):
        sep = rng.choices(["; ", ", ", " || "], weights=[70, 18, 12])[0]
        rule = gen_rule(rng, False)
        if sep == ", " and not re.match(r"^(" + "|".join(DAYS + MONTHS) + r"|PH|\d|week|easter)", rule):
            sep = "; "
        if sep == ", " and re.match(r"^\d\d:", rule):
            sep = "; "
        rules.append(sep + rule)
    e = "".join(rules)
    if rng.random() < 0.03:   # the "Mo, We, Fr 06:30-21:30" shape
        ds = sorted(rng.sample(range(7), 3))
        e = ", ".join(DAYS[i] for i in ds) + " " + gen_span(rng)
    return e


# --------------------------------------------------------------------------------------------
# Allow-list: documented differences (docs/opening-hours.md, "Semantic decisions" and "DST
# policy"). Each predicate sees the case and both answers and must be narrow.

DAY_RE = r"(?:Mo|Tu|We|Th|Fr|Sa|Su)"
OPEN_END_RE = re.compile(r"\d\d:\d\d\+")
SU_PH_RE = re.compile(rf"(?<![,\-\w]){DAY_RE}\s+PH\b|\bPH\s+{DAY_RE}\b(?!\s*[,\-])")
COMMA_SPACE_DAYS_RE = re.compile(rf"((?:{DAY_RE}(?:-{DAY_RE})?)(?:\s*,\s+{DAY_RE}(?:-{DAY_RE})?)+)")
OVERNIGHT_RE = re.compile(r"(\d\d):(\d\d)-(\d\d):(\d\d)")
DAYIDX = {d: i for i, d in enumerate(DAYS)}


def rules_of(expr: str) -> list[str]:
    """Rules split on `;`, `||` and on the `,` that starts a new rule (followed by a selector
    and a space-separated body, roughly); quoted comments are respected."""
    out, cur, q = [], "", False
    i = 0
    while i < len(expr):
        c = expr[i]
        if c == '"':
            q = not q
        if not q and (c == ";" or expr.startswith("||", i)):
            out.append(cur.strip())
            cur = ""
            i += 2 if c == "|" else 1
            continue
        if not q and c == "," and expr.startswith(", ", i) and TIME_RE.search(cur):
            # `, ` after a rule that has times starts an additional rule
            out.append(cur.strip())
            cur = ""
            i += 2
            continue
        cur += c
        i += 1
    out.append(cur.strip())
    return [r for r in out if r]


def local_date(instant: Optional[datetime], tz: str) -> Optional[date]:
    if instant is None:
        return None
    return instant.astimezone(ZoneInfo(tz)).date()


def first_difference(case: Case, ours: Answer, py: Answer) -> datetime:
    """The instant where the two engines first disagree: `at` when the state differs, else the
    earlier of the two next changes (or the one that exists)."""
    if ours.state != py.state or ours.comment != py.comment:
        return case.at
    cands = [x for x in (ours.next_change, py.next_change) if x is not None]
    return min(cands) if cands else case.at


def diff_dates(case: Case, ours: Answer, py: Answer) -> list[date]:
    out = [local_date(case.at, case.tz)]
    for x in (ours.next_change, py.next_change):
        if x is not None:
            out.append(local_date(x, case.tz))
    return [d for d in out if d]


def allow_comment_only(case: Case, ours: Answer, py: Answer) -> bool:
    """Comment-only rule ("by appointment"): ours unknown + comment, py open + comment."""
    has_comment_only = any('"' in r and not TIME_RE.search(r.split('"')[0])
                           and not re.search(r"\b(open|off|closed|unknown)\b", r.split('"')[0])
                           and "24/7" not in r
                           for r in rules_of(case.expr))
    if not has_comment_only:
        return False
    if ours.state == "unknown" and py.state == "open" and ours.comment and ours.comment == py.comment:
        return True
    # same state now, next change differs only because py merges/splits open+comment intervals
    if (ours.state, ours.comment) == (py.state, py.comment) and ours.next_change != py.next_change:
        return True
    return False


def allow_su_ph(case: Case, ours: Answer, py: Answer) -> bool:
    """`Su PH` / `PH Su`: ours a holiday that is a Sunday (spec: intersection); py: union.
    Absorbed only on days that are a Sunday or a holiday but not both."""
    if not SU_PH_RE.search(case.expr):
        return False
    hol = our_holidays(case.cc) | oracle_holidays(case.tz, case.cc)
    first = local_date(first_difference(case, ours, py), case.tz)
    for d in (first - timedelta(days=1), first):
        if (d.weekday() == 6) != (d in hol):
            return True
    return False


def allow_comma_space_days(case: Case, ours: Answer, py: Answer) -> bool:
    """`Mo, We, Fr 06:30-21:30`: ours one rule; py reads `Mo`, `We` as separate all-day rules.
    Absorbed only on (or the day after) a weekday named before a `, `."""
    m = COMMA_SPACE_DAYS_RE.search(case.expr)
    if not m:
        return False
    days: set[int] = set()
    parts = re.split(r"\s*,\s*", m.group(1))
    for p in parts[:-1]:
        if "-" in p:
            a, b = (DAYIDX[x] for x in p.split("-"))
            k = a
            while True:
                days.add(k)
                if k == b:
                    break
                k = (k + 1) % 7
        else:
            days.add(DAYIDX[p])
    first = local_date(first_difference(case, ours, py), case.tz)
    return first.weekday() in days or (first - timedelta(days=1)).weekday() in days


def spill_window(case: Case, ours: Answer, py: Answer) -> Optional[bool]:
    """None when the first difference is not within the after-midnight part of a span past
    midnight (of an expression with several rules); else whether the states differ at `at`."""
    rules = rules_of(case.expr)
    if len(rules) < 2:
        return None
    spill_end = 0
    for a, b, c, d in OVERNIGHT_RE.findall(case.expr):
        s, e = int(a) * 60 + int(b), int(c) * 60 + int(d)
        if e < s or e > 24 * 60:
            spill_end = max(spill_end, e % (24 * 60) if e < s else e - 24 * 60)
        elif e == s:
            spill_end = max(spill_end, s)
    if re.search(r"sunset\)?-\(?(sunrise|dawn)", case.expr):
        spill_end = max(spill_end, 8 * 60)   # sunset-sunrise: until either engine's sunrise
    if spill_end == 0:
        return None
    t = first_difference(case, ours, py)
    wall = t.astimezone(ZoneInfo(case.tz))
    if wall.hour * 60 + wall.minute > spill_end:
        return None
    return t == case.at


def allow_spill_override(case: Case, ours: Answer, py: Answer) -> bool:
    """`Mo-Su 22:00-02:00; We off`, Thursday 01:00: ours closed (the night belongs to the day it
    starts on, and a later `;` rule for that day replaces it), py open. Absorbed only in the
    early hours covered by a span past midnight, and only in the direction ours closed / py
    open (or the next change into or out of such a span)."""
    w = spill_window(case, ours, py)
    if w is None:
        return False
    if w:
        return ours.state == "closed" and py.state in ("open", "unknown")
    return (ours.state, ours.comment) == (py.state, py.comment)


def allow_spill_dropped_by_py(case: Case, ours: Answer, py: Answer) -> bool:
    """The reverse: py drops the after-midnight part of a span whenever any other rule is
    evaluated for the next day, even an EARLIER `;` rule (`Tu 10:00-12:00; Mo 22:00-02:00`,
    Tuesday 01:00: py closed) or a `||` fallback that does not select the day
    (`Th 23:00-04:00 || Su[4] "x"`, Friday 02:00: py closed). Ours keeps it (later rules win;
    a rule that does not select a day changes nothing). Absorbed only in the after-midnight
    hours of such a span, with ours open/unknown there."""
    w = spill_window(case, ours, py)
    if w is None:
        return False
    if w:
        return ours.state in ("open", "unknown") and (ours.state, ours.comment) != (py.state, py.comment)
    return (ours.state, ours.comment) == (py.state, py.comment)


def allow_open_end(case: Case, ours: Answer, py: Answer) -> bool:
    """Open end `18:00+`: ours unknown from the start (or from the end for `10:00-18:00+`) to
    midnight; py open to midnight (`18:00+`) or closed (`10:00-18:00+`)."""
    if not OPEN_END_RE.search(case.expr):
        return False
    if case.at == first_difference(case, ours, py):
        return ours.state == "unknown" and py.state in ("open", "closed")
    return (ours.state, ours.comment) == (py.state, py.comment)


def allow_fall_back(case: Case, ours: Answer, py: Answer) -> bool:
    """Ambiguous wall times at a DST fall-back: both read the wall clock for the state, but py's
    next_change picks the second occurrence of a repeated wall time, ours the first (and ours
    sees the repeated boundaries again after the transition). Same state, next change near
    the repeated period only."""
    if (ours.state, ours.comment) != (py.state, py.comment):
        return False
    if ours.next_change == py.next_change:
        return False
    if fall_back_window(case.tz, case.at):
        return True
    for x in (ours.next_change, py.next_change):
        if x is not None and near_fall_back(case.tz, x):
            # same wall time, different occurrence
            if ours.next_change and py.next_change and \
                    to_wall(ours.next_change, case.tz) == to_wall(py.next_change, case.tz):
                return True
            if ours.next_change and near_fall_back(case.tz, ours.next_change):
                return True
    return False


def allow_holiday_data(case: Case, ours: Answer, py: Answer) -> bool:
    """Holiday data: ours from the PyPI `holidays` package (observed days included), py's
    built-in calendar. Absorbed when a date within a day of the first difference is a holiday
    in exactly one of the two calendars."""
    if "PH" not in case.expr:
        return False
    diff = holiday_diff(case.tz, case.cc)
    if not diff:
        return False
    first = local_date(first_difference(case, ours, py), case.tz)
    return any(first + timedelta(days=k) in diff for k in (-2, -1, 0, 1))


SUN_RE = re.compile(r"\b(sunrise|sunset|dawn|dusk)\b")


def _in_twilight(instant: datetime, tz: str) -> bool:
    w = instant.astimezone(ZoneInfo(tz))
    m = w.hour * 60 + w.minute
    return 3 * 60 + 30 <= m <= 9 * 60 + 30 or 16 * 60 <= m <= 22 * 60


def allow_sun_times(case: Case, ours: Answer, py: Answer) -> bool:
    """Sun times without coordinates: ours uses the documented spec defaults (dawn 05:30,
    sunrise 06:00, sunset 18:00, dusk 18:30) until coordinates are wired; py's defaults are
    06:00/07:00/19:00/20:00. Absorbed only when the difference lies within the twilight hours
    (03:30-09:30, 16:00-22:00 local, wide enough for `(sunset-01:00)` offsets)."""
    if not SUN_RE.search(case.expr):
        return False
    if (ours.state, ours.comment) != (py.state, py.comment):
        return _in_twilight(case.at, case.tz)
    return all(x is not None and _in_twilight(x, case.tz)
               for x in (ours.next_change, py.next_change))


NO_SH = "depends on school holidays, for which there is no data"


def allow_school_holidays(case: Case, ours: Answer, py: Answer) -> bool:
    """SH: there is no school-holiday data; ours evaluates the day both ways and answers
    unknown (with a fixed comment) where they differ; py treats SH as never matching."""
    if not re.search(r"\bSH\b", case.expr):
        return False
    if ours.state == "unknown" and ours.comment == NO_SH:
        return True
    # py's next change is one of ours but ours has an extra boundary into/out of the SH-unknown
    return (ours.state, ours.comment) == (py.state, py.comment)


def allow_horizon(case: Case, ours: Answer, py: Answer) -> bool:
    """The 400-day horizon is counted differently at its very end (py's max_interval_days
    works on whole days): one side has no next change, the other one more than 398 days on."""
    if (ours.state, ours.comment) != (py.state, py.comment):
        return False
    if (ours.next_change is None) == (py.next_change is None):
        return False
    x = ours.next_change or py.next_change
    return x - case.at > timedelta(days=HORIZON_DAYS - 2)


def py_status(case: Case, instant: datetime) -> tuple[str, Optional[str]]:
    oh = oracle_for(case.expr, case.tz, case.cc)
    st, c = oh.state(to_wall(instant, case.tz))
    return STATE_NAMES[st], (c or None)


def allow_oracle_next_change(case: Case, ours: Answer, py: Answer) -> bool:
    """The oracle's next_change contradicts its own state(): (a) py's state changes at our
    next change (and not a minute before) but py's next_change is later or null (seen with
    `||` fallbacks: `Mo-Su 16:30-22:15 || 24/7 closed`, Monday 22:15: next_change null);
    (b) py's next_change is a time where py's own state does not change (seen in DST gaps:
    `02:00-02:30` on Lord Howe's 02:00->02:30 day). Same state at `at` only; ours agrees with
    py's state() at the instant in question."""
    s0 = (ours.state, ours.comment)
    if s0 != (py.state, py.comment):
        return False
    minute = timedelta(minutes=1)
    if ours.next_change is not None and (py.next_change is None or ours.next_change < py.next_change):
        x = ours.next_change
        return py_status(case, x) != s0 and py_status(case, x - minute) == s0
    if py.next_change is not None and (ours.next_change is None or py.next_change < ours.next_change):
        x = py.next_change
        return py_status(case, x) == s0
    return False


def py_status_of(expr: str, case: Case, instant: datetime) -> Optional[tuple[str, Optional[str]]]:
    """The oracle's state for another expression (a part of the case's) at `instant`."""
    try:
        oh = oracle_for(expr, case.tz, case.cc)
        if isinstance(oh, Exception):
            return None
        st, c = oh.state(to_wall(instant, case.tz))
    except Exception:
        return None
    return STATE_NAMES[st], (c or None)


def allow_fallback_coverage(case: Case, ours: Answer, py: Answer) -> bool:
    """`||` fills the TIME the earlier rules leave closed (docs/opening-hours.md): `Mo-Fr 08:00-11:00
    || Tu-Th,PH open "Emergency only"` is "Emergency only" on Tuesday 14:00; py applies a fallback
    per day, only where the earlier rules leave the whole day closed. Absorbed only where, at the
    first differing instant, the rules before the first `||` say closed (py evaluating them alone)
    and ours equals py evaluating the fallback part alone (we filled a gap)."""
    if "||" not in case.expr:
        return False
    head, _, tail = (part.strip() for part in case.expr.partition("||"))
    x = first_difference(case, ours, py)
    head_state = py_status_of(head, case, x)
    if head_state is None or head_state[0] != "closed":
        return False
    ours_at_x = (ours.state, ours.comment) if x == case.at else None
    if ours_at_x is None:
        # Same state at `at`; the next changes differ: compare just after the earlier one.
        return True
    tail_state = py_status_of(tail, case, x)
    if tail_state is not None and ours_at_x == tail_state:
        return True
    # The fallback is a comment-only rule: py reads it as open, ours as unknown (comment-only).
    return tail_state == ("open", ours.comment) and ours.state == "unknown" and bool(ours.comment)


def allow_year_month_wrap(case: Case, ours: Answer, py: Answer) -> bool:
    """`2026 Oct-Apr`: ours one range from October 2026 to April 2027, as both engines read
    `2026 Dec 24-Jan 02`; py filters each day by the year. Absorbed only for expressions with a
    year followed by a month range that wraps the year end."""
    for m in re.finditer(r"\b(\d{4})\s+([A-Z][a-z]{2})\s*-\s*([A-Z][a-z]{2})\b", case.expr):
        months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        if m.group(2) in months and m.group(3) in months and months.index(m.group(3)) < months.index(m.group(2)):
            return True
    return False


ALLOW_LIST: list[tuple[str, str, Callable[[Case, Answer, Answer], bool]]] = [
    ("comment-only", "comment-only rule: ours unknown + comment (js), py open + comment",
     allow_comment_only),
    ("su-ph", "`Su PH`: ours a holiday on a Sunday (spec, js), py Sunday or holiday",
     allow_su_ph),
    ("comma-space-days", "`Mo, We, Fr 06:30-21:30`: ours one rule (js), py separate all-day rules",
     allow_comma_space_days),
    ("holiday-data", "holiday calendars differ (ours: PyPI holidays incl. observed days)",
     allow_holiday_data),
    ("spill-override", "overnight span whose start day a later `;` rule replaces: ours closed",
     allow_spill_override),
    ("spill-dropped-by-py", "py drops a span's after-midnight part when another (even earlier "
     "or non-matching fallback) rule is evaluated for the next day; ours keeps it",
     allow_spill_dropped_by_py),
    ("open-end", "open end `18:00+`: ours unknown after the start/end (spec, js), py open/closed",
     allow_open_end),
    ("dst-fall-back", "repeated wall time at DST fall-back: py next_change picks the 2nd occurrence",
     allow_fall_back),
    ("sun-times", "sun times without coordinates: different default times (docs: spec defaults)",
     allow_sun_times),
    ("school-holidays", "SH without data: ours unknown where it matters, py never SH",
     allow_school_holidays),
    ("horizon", "the last day of the 400-day next_change horizon is counted differently",
     allow_horizon),
    ("fallback-coverage", "`||` fills the time earlier rules leave closed (ours) vs whole days "
     "the earlier rules leave closed (py)", allow_fallback_coverage),
    ("year-month-wrap", "`2026 Oct-Apr`: ours Oct 2026-Apr 2027 (as `2026 Dec 24-Jan 02`), py per-day year filter",
     allow_year_month_wrap),
    ("oracle-next-change", "py's next_change contradicts py's own state() (fallback rules, DST gaps)",
     allow_oracle_next_change),
]


# --------------------------------------------------------------------------------------------

def parse_ours(obj: dict) -> Answer:
    if "error" in obj:
        return Answer(error=str(obj["error"]))
    a = Answer(state=obj.get("state"), comment=obj.get("comment") or None)
    nc = obj.get("next_change")
    if nc:
        a.nc_text = nc
        a.next_change = datetime.fromisoformat(nc.replace("Z", "+00:00")).astimezone(UTC)
    return a


def run_ours(binary: str, cases: list[Case]) -> dict[int, Answer]:
    data = "".join(c.line() + "\n" for c in cases).encode()
    p = subprocess.run([binary, "hours", "--batch"], input=data, capture_output=True)
    if p.returncode != 0 and not p.stdout:
        print(f"{binary} hours --batch failed ({p.returncode}): {p.stderr.decode()[:2000]}",
              file=sys.stderr)
        print("differential: FAILED: the stores binary gave no answers")
        sys.exit(2)
    out: dict[int, Answer] = {}
    for line in p.stdout.decode().splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        out[int(obj["id"])] = parse_ours(obj)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stores", default=str(REPO / ".build" / "debug" / "stores"),
                    help="the stores binary (default: .build/debug/stores)")
    ap.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus"),
                    help="the shared corpus directory (default: ../shared/corpus)")
    ap.add_argument("--data", default=str(REPO / "Data" / "stores.geojson"))
    ap.add_argument("--seed", type=int, default=20260329)
    ap.add_argument("--quick", action="store_true", help="a smaller run (~1/8 of the cases)")
    ap.add_argument("--generated", type=int, default=None, help="generated expressions")
    ap.add_argument("--show", type=int, default=3, help="disagreements shown per expression")
    ap.add_argument("--max-expressions", type=int, default=150,
                    help="expressions with disagreements shown in full")
    ap.add_argument("--show-allowed", type=int, default=0,
                    help="print this many absorbed cases per allow-list entry (to audit them)")
    ap.add_argument("--show-known", action="store_true",
                    help="print the known differences in full, like new ones")
    args = ap.parse_args()

    t0 = time.time()
    rng = random.Random(args.seed)
    quick = args.quick
    n_gen = args.generated if args.generated is not None else (250 if quick else 1500)

    # (expr, tz, cc, source, n_random, n_boundary, n_transitions)
    specs: list[tuple[str, str, Optional[str], str, int, int, int]] = []
    skipped: collections.Counter[str] = collections.Counter()
    skipped_examples: dict[str, list[str]] = collections.defaultdict(list)

    def add(expr, tz, cc, source, nr, nb, nt):
        o = oracle_for(expr, tz, cc)
        if isinstance(o, Exception):
            kind = type(o).__name__
            skipped[f"{source}: oracle {kind}"] += 1
            if len(skipped_examples[source]) < 5:
                skipped_examples[source].append(expr)
            return
        specs.append((expr, tz, cc, source, nr, nb, nt))

    corpus = Path(args.corpus)
    if not corpus.exists():
        print(f"note: {corpus} is absent; corpus expressions skipped", file=sys.stderr)
    for fname, zones in (("french_poi_sample.txt", [("Europe/Paris", "FR")]),
                         ("atp_normalised.txt", None)):
        for i, expr in enumerate(read_lines(corpus / "hours" / fname)):
            zs = zones or [ZONES[i % len(ZONES)]]
            zs = zs + [ZONES[(i * 3 + 1) % len(ZONES)]]
            for tz, cc in zs:
                add(expr, tz, cc, fname, 8 if quick else 20, 8 if quick else 20, 1)

    store_keys: list[tuple[str, str, str]] = []
    dp = Path(args.data)
    if dp.exists():
        seen = set()
        for f in json.loads(dp.read_text())["features"]:
            pr = f.get("properties") or {}
            oh, tz = pr.get("opening_hours"), pr.get("timezone")
            if not oh or not tz:
                continue
            key = (oh, tz, pr.get("addr:country"))
            if key not in seen:
                seen.add(key)
                store_keys.append(key)
    if quick:
        store_keys = rng.sample(store_keys, min(300, len(store_keys)))
    for oh, tz, cc in store_keys:
        add(oh, tz, cc, "stores.geojson", 6 if quick else 10, 6 if quick else 10, 1)

    gen_seen = set()
    attempts = 0
    while len(gen_seen) < n_gen and attempts < n_gen * 5:
        attempts += 1
        e = gen_expression(rng)
        if e in gen_seen:
            continue
        gen_seen.add(e)
        tz, cc = ZONES[len(gen_seen) % len(ZONES)]
        add(e, tz, cc, "generated", 12 if quick else 20, 12 if quick else 20, 1)

    cases: list[Case] = []
    for expr, tz, cc, source, nr, nb, nt in specs:
        for inst in instants_for(expr, tz, cc, rng, nr, nb, nt):
            cases.append(Case(len(cases) + 1, expr, tz, cc, inst, source))
    t1 = time.time()
    print(f"built {len(cases)} cases from {len(specs)} (expression, zone) pairs in {t1 - t0:.1f}s")

    ours = run_ours(args.stores, cases)
    t2 = time.time()
    print(f"stores hours --batch: {len(ours)} answers in {t2 - t1:.1f}s")

    allow_counts: collections.Counter[str] = collections.Counter()
    rejected: dict[tuple[str, str], str] = {}
    rejected_cases = 0
    missing = 0
    passed = 0
    failures: dict[tuple[str, str, str], list[tuple[Case, Answer, Answer]]] = collections.defaultdict(list)
    by_source: collections.Counter[str] = collections.Counter()
    fail_source: collections.Counter[str] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    allowed_examples: dict[str, list] = collections.defaultdict(list)

    for c in cases:
        by_source[c.source] += 1
        py = ask_oracle(c)
        o = ours.get(c.id)
        if o is None:
            missing += 1
            fail_source[c.source] += 1
            failures[(c.expr, c.tz, c.cc or "")].append((c, Answer(error="no answer"), py))
            continue
        if o.error:
            rejected_cases += 1
            fail_source[c.source] += 1
            rejected.setdefault((c.expr, c.source), o.error)
            continue
        if (o.state, o.comment, o.next_change) == (py.state, py.comment, py.next_change):
            passed += 1
            continue
        for name, _why, pred in ALLOW_LIST:
            if pred(c, o, py):
                allow_counts[name] += 1
                if len(allowed_examples[name]) < args.show_allowed:
                    allowed_examples[name].append((c, o, py))
                passed += 1
                break
        else:
            fail_source[c.source] += 1
            if o.state != py.state:
                kinds["state"] += 1
            elif o.comment != py.comment:
                kinds["comment"] += 1
            else:
                kinds["next_change"] += 1
            failures[(c.expr, c.tz, c.cc or "")].append((c, o, py))
    t3 = time.time()

    total = len(cases)
    failed = total - passed
    pct = 100.0 * passed / total if total else 100.0
    raw_agree = passed - sum(allow_counts.values())

    print()
    print(f"oracle ran in {t3 - t2:.1f}s; total {t3 - t0:.1f}s")
    print(f"expressions not compared, as the oracle refuses them: {sum(skipped.values())}")
    for k, v in sorted(skipped.items()):
        print(f"  {k}: {v}")
    for src, ex in skipped_examples.items():
        for e in ex:
            print(f"    e.g. [{src}] {e}")
    print(f"cases: {total}  (" + ", ".join(f"{k} {v}" for k, v in sorted(by_source.items())) + ")")
    print(f"exact agreement: {raw_agree} ({100.0 * raw_agree / max(total, 1):.3f} %)")
    print("allow-listed differences:")
    for name, why, _ in ALLOW_LIST:
        print(f"  {allow_counts[name]:7d}  {name}: {why}")
    for name, lst in allowed_examples.items():
        if not lst:
            continue
        print(f"  examples absorbed by {name}:")
        for c, o, py in lst:
            wall = c.at.astimezone(ZoneInfo(c.tz))
            print(f"    {c.expr!r} {c.tz} {c.cc} at {iso_z(c.at)} (local {wall.strftime('%a %Y-%m-%d %H:%M')})"
                  f"\n      ours: {o.show()}\n      py:   {py.show()}")
    print(f"agreement after the allow-list: {passed}/{total} = {pct:.3f} % (threshold {THRESHOLD} %)")
    print("remaining disagreements (known and new) by source: " + (", ".join(f"{k} {v}" for k, v in sorted(fail_source.items())) or "none"))
    print("remaining disagreements by kind: " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none")
          + (f", rejected by us {rejected_cases}" if rejected_cases else "")
          + (f", no answer {missing}" if missing else ""))

    if rejected:
        print()
        print(f"EXPRESSIONS THE ORACLE ACCEPTS AND WE REJECT: {len(rejected)} ({rejected_cases} cases)")
        for (e, src), err in sorted(rejected.items()):
            print(f"  [{src}] {e!r}\n      ours: {err}")

    known_pairs = {(k["expression"], k["timezone"]): k["reason"]
                   for k in json.loads(KNOWN_DIFFERENCES.read_text())["known"]}
    known = {key: lst for key, lst in failures.items() if (key[0], key[1]) in known_pairs}
    new = {key: lst for key, lst in failures.items() if (key[0], key[1]) not in known_pairs}
    known_cases = sum(len(v) for v in known.values())
    new_cases = sum(len(v) for v in new.values())
    stale = sorted(set(known_pairs) - {(k[0], k[1]) for k in known})
    if known:
        print()
        print(f"known differences: {known_cases} cases in {len(known)} (expression, zone) pairs, each with "
              f"its reason in {KNOWN_DIFFERENCES.relative_to(REPO)}" + ("" if args.show_known else " (--show-known prints them)"))
        if not args.show_known:
            for (e, tz, _cc), lst in sorted(known.items(), key=lambda kv: -len(kv[1])):
                print(f"  {len(lst):5d}  {e!r}  tz={tz}: {known_pairs[(e, tz)]}")
    if stale and not args.quick and args.seed == 20260329 and args.generated is None:
        print()
        print(f"note: {len(stale)} known differences no longer occur; remove them from "
              f"{KNOWN_DIFFERENCES.relative_to(REPO)}:")
        for e, tz in stale:
            print(f"  {e!r}  tz={tz}")
    shown = {**new, **known} if args.show_known else new
    if shown:
        print()
        print(f"NEW DISAGREEMENTS: {new_cases} cases in {len(new)} (expression, zone) pairs"
              + (f" (and the {known_cases} known ones)" if args.show_known and known else ""))
        items = sorted(shown.items(), key=lambda kv: -len(kv[1]))
        for n, ((e, tz, cc), lst) in enumerate(items):
            if n >= args.max_expressions:
                rest = items[n:]
                print(f"  ... {len(rest)} more expressions with {sum(len(v) for _, v in rest)} disagreements not shown")
                break
            print(f"  {e!r}  tz={tz} country={cc or '-'}  [{lst[0][0].source}]  {len(lst)} cases")
            for c, o, py in lst[:args.show]:
                wall = c.at.astimezone(ZoneInfo(c.tz))
                print(f"    at {iso_z(c.at)} (local {wall.strftime('%a %Y-%m-%d %H:%M%z')})")
                print(f"      ours:   {o.show()}")
                print(f"      oracle: {py.show()}")
            if len(lst) > args.show:
                print(f"    ({len(lst) - args.show} more hidden)")

    ok = pct >= THRESHOLD and not rejected and not missing
    print()
    print(f"differential: {'PASSED' if ok else 'FAILED'}: {passed} of {total} cases agree ({pct:.3f} %, "
          f"threshold {THRESHOLD} %; {raw_agree} exactly, {passed - raw_agree} by the allow-list); "
          f"{known_cases} known differences (see {KNOWN_DIFFERENCES.relative_to(REPO)}), {new_cases} new"
          + (f", {rejected_cases} rejected by us" if rejected_cases else "")
          + (f", {missing} without an answer" if missing else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
