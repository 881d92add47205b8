#!/usr/bin/env python3
"""The dashboard as a person uses it: built from fixture results, every page opened in a real
headless Chromium (Debian's `chromium`).

Usage: check_dashboard.py DASHBOARD_SCRIPT DATA_DIR REFERENCE_DIR

Checks that every page loads with no console message (the site logs none), that every image and
link resolves (after the page's script ran: the DOM Chromium dumps), that the history page's
search finds a benchmark given in its URL, and that the front page's verdict is compare.py's for
the same files. Then breaks a copy of the site twice (an image removed, a link pointed nowhere)
and requires the same checks to fail. Exit 0, 1 on a failure, 77 (skipped) without Chromium or
Jinja2.
"""
import concurrent.futures
import copy
import glob
import gzip
import html
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

SKIP = 77
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class Dom(html.parser.HTMLParser):
    """The URLs a page refers to, the ids it has, and the attributes of the elements asked for."""

    def __init__(self):
        super().__init__()
        self.refs, self.ids, self.elements = [], set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) and not (tag == "form"):
                self.refs.append((tag, a[key]))
        if tag == "form" and a.get("action"):
            self.refs.append((tag, a["action"]))
        self.elements.append((tag, a))


# dashboard.py with the plot scripts not called (each draws nothing): a site whose cards are
# checked and whose plots were checked on another site of the same runs.
WITHOUT_PLOTS = """
import os, runpy, sys
script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
from archbench_tools.plots import plotlib
plotlib.render_scripts = lambda jobs, workers=None: [([], None) for _ in jobs]
plotlib.start_scripts = lambda jobs, workers=None: (lambda done=[([], None) for _ in jobs]: done)
runpy.run_path(script, run_name="__main__")
"""


def browser():
    for b in BROWSERS:
        if shutil.which(b):
            return shutil.which(b)
    return None


OPENED = {}  # url -> what open_page returned: a page opened again (the front page) is read once


def open_page(chrome, path, query=""):
    """Chromium's DOM of the page after its scripts ran, and the console messages it logged. A
    page is never changed once opened (a broken site is a copy), so a second look reuses the first."""
    url = "file://" + os.path.abspath(path) + query
    if url not in OPENED:
        OPENED[url] = _open_page(chrome, url)
    return OPENED[url]


def _open_page(chrome, url):
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
                        "--dump-dom", url], capture_output=True, text=True, timeout=120)
    console = [line for line in r.stderr.splitlines() if ":CONSOLE" in line]
    return r.stdout, console, r.returncode


def check_site(chrome, site, only=None):
    """Every page (or those named in `only`): loads, no console message, every image and link
    resolves. Returns the problems."""
    problems = []
    pages = [os.path.join(site, p) for p in only] if only else \
        sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
    if not pages:
        return [f"{site}: no page"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:  # a browser per page, a few at a time
        opened = list(pool.map(lambda p: open_page(chrome, p), pages))
    for page, (dom_text, console, rc) in zip(pages, opened):
        rel = os.path.relpath(page, site)
        if rc != 0 or "<html" not in dom_text:
            problems.append(f"{rel}: did not load (exit {rc})")
            continue
        problems += [f"{rel}: console: {c.split(']', 1)[-1].strip()}" for c in console]
        dom = Dom()
        dom.feed(dom_text)
        for tag, ref in dom.refs:
            parsed = urllib.parse.urlparse(ref)
            if parsed.scheme in ("http", "https"):
                problems.append(f"{rel}: <{tag}> fetches from the network: {ref}")
                continue
            target = page if not parsed.path else os.path.normpath(os.path.join(os.path.dirname(page), parsed.path))
            if not os.path.isfile(target):
                problems.append(f"{rel}: <{tag}> {ref}: no such file")
                continue
            if parsed.fragment and target == page and parsed.fragment not in dom.ids:
                problems.append(f"{rel}: <{tag}> {ref}: no element with that id")
            if tag == "img":
                with open(target, "rb") as f:
                    head = f.read(512)
                if b"<svg" not in head and not head.startswith(b"\x89PNG"):
                    problems.append(f"{rel}: <img> {ref}: not an image")
    return problems


def red_cards(chrome, site, expect_red):
    """The front page as Chromium renders it: the cards drawn red (class "bad", whose border the
    style sheet colours) must be exactly those whose verdict is a regression or a failed acceptance,
    and there must be `expect_red` of them."""
    dom_text, _, _ = open_page(chrome, os.path.join(site, "index.html"))
    dom = Dom()
    dom.feed(dom_text)
    problems, red, sections = [], 0, []
    for tag, a in dom.elements:
        if tag == "section" and "card" in a.get("class", "").split():
            sections.append((a, []))
            red += "bad" in a.get("class", "").split()
        said = a.get("data-verdict") or a.get("data-accept")
        if sections and said and said != "none":
            sections[-1][1].append(said)
    # A card shows compare's verdict and the acceptance verdict: red when either is a regression or
    # a failure, and only then.
    for section, said in sections:
        if not said:
            continue
        should = any(x.startswith("REGRESSION") or x.startswith("NOT HEALTHY") for x in said)
        if should != ("bad" in section.get("class", "").split()):
            problems.append(f"{section.get('id')}: drawn {'red' if not should else 'not red'} for '{' / '.join(said)[:60]}'")
    if red != expect_red:
        problems.append(f"{red} red card(s) on {os.path.basename(site)}'s front page, expected {expect_red}")
    return problems


def merged_run(files, date, sha):
    """One run of a GPU from its per-feature fixture files: their benchmarks and the first context."""
    docs = [json.load(open(f)) for f in files]
    doc = {"context": copy.deepcopy(docs[0]["context"]), "benchmarks": []}
    for d in docs:
        doc["benchmarks"] += d["benchmarks"]
        for k, v in d["context"].items():
            if k.startswith("archbench_method_"):
                doc["context"][k] = v
    doc["context"].update({"date": date, "archbench_git_sha": sha, "archbench_quick": "false"})
    doc["context"].pop("archbench_fault", None)
    return doc


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    script, data_dir, reference = sys.argv[1:]
    chrome = browser()
    if not chrome:
        print(f"no Chromium ({', '.join(BROWSERS)}; Debian: apt-get install chromium): skipped")
        return SKIP
    try:
        import jinja2  # noqa: F401
    except ImportError:
        print("Jinja2 not installed (pip install jinja2): skipped")
        return SKIP
    here = os.path.dirname(os.path.abspath(script))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # Three runs of one model on one board (the third 30 % slower in one benchmark), and the
        # other fixture GPUs as they are.
        results = os.path.join(tmp, "results")
        h100 = sorted(glob.glob(os.path.join(data_dir, "h100_*.json")))
        model = os.path.join(results, "nvidia-h100-80gb-hbm3")
        os.makedirs(model)
        runs = []
        # One commit for the three (one the method ledger knows): every benchmark's method is the same.
        sha = json.load(open(os.path.join(data_dir, "h100_atomics.json")))["context"]["archbench_git_sha"]
        for i, day in enumerate(("2026-11-20", "2026-11-21", "2026-11-22")):
            doc = merged_run(h100, f"{day}T10:00:00+00:00", sha)
            if i == 2:
                for b in doc["benchmarks"]:
                    if b.get("name", "").startswith("Atomics/global/atom.add.u32/gpu/contention:all/"):
                        for k in ("atomics_per_clk", "atomics_per_clk_concurrent", "atomics_per_second"):
                            if isinstance(b.get(k), (int, float)):
                                b[k] *= 0.7
            path = os.path.join(model, f"{day}-full.json.gz")
            with gzip.open(path, "wt") as f:
                json.dump(doc, f)
            runs.append(path)
        for f in glob.glob(os.path.join(data_dir, "h200*.json")):
            os.makedirs(os.path.join(results, "nvidia-h200"), exist_ok=True)
            shutil.copy(f, os.path.join(results, "nvidia-h200"))
        site = os.path.join(tmp, "site")
        r = subprocess.run([sys.executable, script, results, "--out", site, "--reference", reference],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: dashboard.py exited {r.returncode}:\n{r.stdout}{r.stderr}")
            return 1

        failures += check_site(chrome, site)

        # The search finds a benchmark named in the URL; one that does not exist finds nothing.
        history = os.path.join(site, "history", "nvidia-h100-80gb-hbm3.html")
        for query, want in (("?q=Atomics/global/atom.add.u32", True), ("?q=no/such/benchmark", False)):
            dom_text, _, _ = open_page(chrome, history, query)
            dom = Dom()
            dom.feed(dom_text)
            shown = [a for tag, a in dom.elements if tag == "tr" and a.get("data-name") and "hidden" not in a]
            found = any("atomics/global/atom.add.u32" in a["data-name"] for a in shown)
            count = next((a.get("data-shown") for tag, a in dom.elements if a.get("id") == "count"), None)
            if found != want or (want and not count) or (not want and count != "0"):
                failures.append(f"search {query}: found {found}, count {count} (expected {'a row' if want else 'none'})")

        # The front page's verdict is compare.py's for the same files (the earlier runs its history).
        out = subprocess.run([sys.executable, os.path.join(here, "compare.py"), runs[1], runs[2], "--history", runs[0]],
                             capture_output=True, text=True).stdout
        said = next((line.split("Verdict: ", 1)[1] for line in out.splitlines() if line.startswith("Verdict: ")), None)
        dom = Dom()
        dom.feed(open(os.path.join(site, "index.html")).read())
        shown = [html.unescape(a["data-verdict"]) for tag, a in dom.elements if a.get("data-verdict") not in (None, "none")]
        if said is None or shown != [said]:
            failures.append(f"front page verdict {shown} != compare.py's {said!r}")
        elif not said.startswith("REGRESSION in Atomics"):
            failures.append(f"the planted 30 % slowdown was not a regression in Atomics: {said!r}")

        # Red only for what the model calls a regression or a failure, as a browser shows it: the
        # card with the planted slowdown is red, every other card is not; and a site of healthy runs
        # (the same board's first two runs) shows no red card.
        failures += red_cards(chrome, site, expect_red=1)
        healthy = os.path.join(tmp, "results-healthy")
        os.makedirs(os.path.join(healthy, "nvidia-h100-80gb-hbm3"))
        for p in runs[:2]:
            shutil.copy(p, os.path.join(healthy, "nvidia-h100-80gb-hbm3"))
        healthy_site = os.path.join(tmp, "site-healthy")
        # no references and no plots: the generations page (20 s of drawing) and the same board's
        # feature plots (35 s) were checked above; the cards are the point
        no_reference = os.path.join(tmp, "no-reference")
        os.makedirs(no_reference)
        r = subprocess.run([sys.executable, "-c", WITHOUT_PLOTS, script, healthy, "--out", healthy_site,
                            "--reference", no_reference], capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"dashboard.py on healthy runs exited {r.returncode}: {r.stderr.strip()[-200:]}")
        else:
            failures += red_cards(chrome, healthy_site, expect_red=0)

        # The checks catch a broken site: the generations page's image removed, then the front
        # page's link to it pointed nowhere (each page checked as above).
        for what, page in (("image", "generations.html"), ("link", "index.html")):
            broken = os.path.join(tmp, f"broken-{what}")
            shutil.copytree(site, broken)
            if what == "image":
                os.remove(os.path.join(broken, "plots", "generations_release.svg"))
            else:
                index = os.path.join(broken, "index.html")
                text = open(index).read().replace('generations.html"', 'generations-gone.html"', 1)
                open(index, "w").write(text)
            caught = check_site(chrome, broken, [page])
            if not caught:
                failures.append(f"a {what} broken on purpose was not caught")
            else:
                print(f"broken {what}, caught: {caught[0]}")
    for f in failures:
        print(f"FAIL: {f}")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
