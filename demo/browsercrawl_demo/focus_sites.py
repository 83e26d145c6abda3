"""Five differently built university sites with known target pages, for focused-crawling tests.

The target topic is the one of the bootstrapping focused crawler's source paper: pages that give
past admission scores (a year, a province, a table of minimum/average/highest scores). Each site
words it its own way ("cutoff scores", "entry grade statistics", "minimum marks"...), and every
site hides its targets a few clicks deep behind directory pages whose anchors say nothing of
them ("Services", "Notices", "Records", "March", "Open data"), while tempting anchors
("Admissions", "Team scores", "Scholarships") lead to decoys that share the topic's words or a
table of numbers but are not score pages.

Shapes (one generator each, so URL shapes, templates, fan-out and depth all differ):

* ``tree``    clean hierarchical paths, targets at depth 5 under services/records/archive/year
* ``cms``     one ``index.php`` with ``?cat=&page=`` listings and ``?id=`` items; targets are
              a third of the items of a "Notices" category, four listing pages deep
* ``wiki``    ``/wiki/<Slug>`` pages with tags and "see also" cross links; targets reachable
              through the "Records" tag and from each other
* ``blog``    a dated archive ``/blog/<year>/<month>/<slug>``: month names as anchors
* ``portal``  (the held-out shape) a mega-menu on every page (high fan-out), department
              sub-sites, targets under ``/o/st/<n>`` reached only from an "Open data" footer link

``make_site(shape, seed)`` returns a :class:`Site` (pages with their truth); ``make_app`` serves
it with aiohttp. Everything is deterministic for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from html import escape

from aiohttp import web

PROVINCES = ["Hebei", "Henan", "Shandong", "Jiangsu", "Hunan", "Sichuan", "Fujian", "Anhui", "Yunnan",
             "Shanxi", "Gansu", "Guangxi"]
YEARS = [2019, 2020, 2021, 2022, 2023]
# How each site names its target pages (title words) and what its body text says.
PHRASES = {
    "tree": ("Admission cutoff scores", "cutoff score"),
    "cms": ("Entry grade statistics", "entry grade"),
    "wiki": ("Minimum marks by region", "minimum mark"),
    "blog": ("Enrolment score results", "enrolment score"),
    "portal": ("Admission thresholds", "threshold score"),
}
TARGET_SENTENCES = [
    "The table lists the lowest, average and highest {p} of students enrolled in {y} from {prov}.",
    "Scores are given by batch and by subject group (science and humanities).",
    "Candidates from {prov} admitted in the first batch of {y} are counted once.",
    "The provincial control line of {prov} is shown beside our {p} for comparison.",
    "These figures are final; the admissions office publishes them after enrolment closes.",
    "Rank equivalents help applicants compare the {p} of {y} with later years.",
    "Students admitted through special programmes are not included in the {p} table.",
]
OTHER_TOPICS = {
    "campus": "library building garden canteen dormitory lake bridge museum lecture hall sports ground",
    "research": "laboratory project grant paper journal conference professor team innovation award patent",
    "life": "club festival concert volunteer society student union music theatre volunteer day trip",
    "alumni": "alumni reunion career mentor donation network graduate story interview company founder",
    "it": "network account password email printing software licence helpdesk wifi portal",
}
SPORT_WORDS = "team match goal league final season coach players tournament basketball football"
NEWS_ADMISSION = ("Admission open day: prospective students and parents visited the campus, met the "
                  "admissions office and asked about majors, scholarships and dormitories.")


@dataclass
class Page:
    path: str
    title: str
    body: str  # HTML of the main content (links included)
    kind: str = "other"  # "target" or "other" (the truth)


@dataclass
class Site:
    shape: str
    name: str
    template: str  # how the page frame is built: "div" | "table" | "aside" | "header" | "mega"
    nav: list[tuple[str, str]]
    root: str = "/"
    pages: dict[str, Page] = field(default_factory=dict)
    footer: list[tuple[str, str]] = field(default_factory=list)

    def add(self, page: Page) -> Page:
        self.pages[page.path] = page
        return page

    def targets(self) -> set[str]:
        return {p for p, page in self.pages.items() if page.kind == "target"}

    def html(self, path: str) -> str | None:
        page = self.pages.get(path)
        if page is None:
            return None
        return render(self, page)


def _links(items: list[tuple[str, str]], tag: str = "li") -> str:
    return "".join(f"<{tag}><a href='{escape(h)}'>{escape(t)}</a></{tag}>" for h, t in items)


def render(site: Site, page: Page) -> str:
    """The page in its site's frame: every site builds its navigation and layout differently."""
    nav = site.nav
    if site.template == "div":
        frame = (f"<div class='top'><div class='brand'>{site.name}</div><ul class='nav'>{_links(nav)}</ul>"
                 f"</div><div class='content'><h1>{escape(page.title)}</h1>{page.body}</div>"
                 f"<div class='foot'>{_links(site.footer, 'span')}</div>")
    elif site.template == "table":
        cells = "".join(f"<td><a href='{escape(h)}'>{escape(t)}</a></td>" for h, t in nav)
        frame = (f"<table class='layout'><tr>{cells}</tr><tr><td colspan='{len(nav)}'>"
                 f"<h2>{escape(page.title)}</h2>{page.body}</td></tr></table>")
    elif site.template == "aside":
        frame = (f"<aside><nav><ul>{_links(nav)}</ul></nav></aside><article><header><h1>"
                 f"{escape(page.title)}</h1></header>{page.body}</article>"
                 f"<footer>{_links(site.footer, 'span')}</footer>")
    elif site.template == "header":
        frame = (f"<header><nav>{' | '.join(f'<a href={h!r}>{escape(t)}</a>' for h, t in nav)}</nav>"
                 f"</header><main><section><h1>{escape(page.title)}</h1>{page.body}</section></main>")
    else:  # mega menu
        cols = "".join(f"<div class='col'><ul>{_links(nav[i:i + 8])}</ul></div>"
                       for i in range(0, len(nav), 8))
        frame = (f"<div id='mega'>{cols}</div><div id='page'><div class='crumbs'>{site.name}</div>"
                 f"<h1>{escape(page.title)}</h1><div class='text'>{page.body}</div></div>"
                 f"<div id='footer'>{_links(site.footer, 'p')}</div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(page.title)} - "
            f"{escape(site.name)}</title></head><body>{frame}</body></html>")


# -- text -------------------------------------------------------------------------------------
def _prose(rng: random.Random, topic: str, n: int = 3) -> str:
    words = OTHER_TOPICS[topic].split()
    sentences = []
    for _ in range(n):
        ws = rng.sample(words, 6)
        verb = rng.choice(["welcome", "host", "open"])
        sentences.append(f"The {ws[0]} and the {ws[1]} of our {ws[2]} {verb} a new {ws[3]} "
                         f"with {ws[4]} and {ws[5]}.")
    return "<p>" + " ".join(sentences) + "</p>"


def _score_table(rng: random.Random, layout: str) -> str:
    rows = []
    for batch in ("First batch", "Second batch"):
        for group in ("Science", "Humanities"):
            low = rng.randint(480, 600)
            rows.append((batch, group, low, low + rng.randint(5, 25), low + rng.randint(30, 70)))
    if layout == "list":
        return "<ul class='scores'>" + "".join(
            f"<li>{b}, {g}: lowest {lo}, average {av}, highest {hi}</li>"
            for b, g, lo, av, hi in rows) + "</ul>"
    head = "<tr><th>Batch</th><th>Group</th><th>Lowest</th><th>Average</th><th>Highest</th></tr>"
    return "<table class='data'>" + head + "".join(
        f"<tr><td>{b}</td><td>{g}</td><td>{lo}</td><td>{av}</td><td>{hi}</td></tr>"
        for b, g, lo, av, hi in rows) + "</table>"


def target_page(rng: random.Random, shape: str, path: str, year: int, prov: str,
                layout: str = "table") -> Page:
    title_words, phrase = PHRASES[shape]
    sentences = rng.sample(TARGET_SENTENCES, 4)
    text = " ".join(s.format(p=phrase + "s", y=year, prov=prov) for s in sentences)
    return Page(path, f"{title_words} {year} - {prov}",
                f"<p>{text}</p>{_score_table(rng, layout)}", "target")


def admission_news(rng: random.Random, path: str, n: int) -> Page:
    year = rng.choice(YEARS)
    extra = rng.choice(["Tours of the library and the sports ground were offered.",
                        "The admissions office answered questions about majors and fees.",
                        "Parents asked how scholarships are awarded to new students."])
    return Page(path, f"Admission open day {year} ({n})", f"<p>{NEWS_ADMISSION} {extra}</p>")


def plan_page(rng: random.Random, path: str, n: int) -> Page:
    """The hardest decoy: same words as a score page (year, province, batch, enrolled), but quotas."""
    year, prov = rng.choice(YEARS), rng.choice(PROVINCES)
    rows = "".join(f"<tr><td>{g}</td><td>{rng.randint(20, 200)}</td></tr>" for g in ("Science", "Humanities"))
    return Page(path, f"Admission plan {year} - {prov} ({n})",
                f"<p>Number of students to be enrolled from {prov} in {year}, by batch and subject group. "
                f"Quotas may change; the admissions office publishes the final plan in June.</p>"
                f"<table class='data'><tr><th>Group</th><th>Places</th></tr>{rows}</table>")


def scholarship_page(rng: random.Random, path: str, n: int) -> Page:
    prov = rng.choice(PROVINCES)
    return Page(path, f"Scholarship for new students {n}",
                f"<p>Students enrolled from {prov} with the highest scores in the entrance examination may "
                f"apply for a scholarship of {rng.randint(2, 9)}000 yuan. Apply to the student office.</p>")


def timetable_page(rng: random.Random, path: str, name: str) -> Page:
    courses = ["Algebra", "Physics", "History", "Design"]
    rows = "".join(f"<tr><td>Week {w}</td><td>{rng.choice(courses)}</td>"
                   f"<td>Room {rng.randint(100, 499)}</td><td>{rng.randint(1, 6)}</td></tr>"
                   for w in range(1, 7))
    return Page(path, f"Course timetable - {name}",
                f"<p>Course timetable of {name} for this term.</p><table class='data'><tr><th>Week</th>"
                f"<th>Course</th><th>Room</th><th>Credits</th></tr>{rows}</table>")


def sports_page(rng: random.Random, path: str, n: int) -> Page:
    words = SPORT_WORDS.split()
    rows = "".join(f"<tr><td>{rng.choice(words).title()} {i}</td><td>{rng.randint(0, 5)}</td>"
                   f"<td>{rng.randint(0, 5)}</td></tr>" for i in range(4))
    return Page(path, f"Team scores {n}",
                f"<p>Scores of our {rng.choice(words)} {rng.choice(words)} this season: the "
                f"{rng.choice(words)} and the {rng.choice(words)}.</p><table class='data'>{rows}</table>")


def other_page(rng: random.Random, path: str, title: str | None = None) -> Page:
    topic = rng.choice(list(OTHER_TOPICS))
    words = OTHER_TOPICS[topic].split()
    return Page(path, title or f"{rng.choice(words).title()} {rng.choice(words)} {rng.randint(1, 99)}",
                _prose(rng, topic, rng.randint(2, 4)))


def _append_links(page: Page, links: list[tuple[str, str]], heading: str = "") -> None:
    head = f"<h3>{escape(heading)}</h3>" if heading else ""
    page.body += f"{head}<ul>{_links(links)}</ul>"


# -- shapes -----------------------------------------------------------------------------------
def make_tree(rng: random.Random) -> Site:
    site = Site("tree", "Northern University", "div",
                nav=[("/", "Home"), ("/about", "About"), ("/faculties/", "Faculties"),
                     ("/admissions/", "Admissions"), ("/news/", "News"), ("/services/", "Services")],
                footer=[("/about", "Contact"), ("/services/it/", "IT help")])
    site.add(Page("/", "Welcome", _prose(rng, "campus")))
    site.add(other_page(rng, "/about", "About the university"))
    fac = site.add(Page("/faculties/", "Faculties", ""))
    fac_links = []
    for f in ["science", "arts", "law", "medicine", "engineering", "economics"]:
        fp = site.add(other_page(rng, f"/faculties/{f}/", f"Faculty of {f.title()}"))
        staff = [(f"/faculties/{f}/staff/{n}.html", f"Professor {rng.choice(PROVINCES)} {n}")
                 for n in range(4)]
        for href, name in staff:
            site.add(other_page(rng, href, name))
        site.add(timetable_page(rng, f"/faculties/{f}/timetable.html", f.title()))
        _append_links(fp, [*staff, (f"/faculties/{f}/timetable.html", "Timetable")])
        fac_links.append((f"/faculties/{f}/", f.title()))
    _append_links(fac, fac_links)
    adm = site.add(Page("/admissions/", "Admissions", "<p>News for applicants.</p>"))
    adm_links = []
    for n in range(12):
        adm_links.append((f"/admissions/news-{n}.html", f"Admission news {n}"))
        site.add(admission_news(rng, f"/admissions/news-{n}.html", n))
    for n in range(5):
        adm_links.append((f"/admissions/scholarship-{n}.html", f"Scholarships {n}"))
        site.add(scholarship_page(rng, f"/admissions/scholarship-{n}.html", n))
        adm_links.append((f"/admissions/plan-{n}.html", f"Admission plan {n}"))
        site.add(plan_page(rng, f"/admissions/plan-{n}.html", n))
    _append_links(adm, adm_links)
    for p in range(4):
        path = "/news/" if p == 0 else f"/news/?p={p}"
        page = site.add(Page(path, f"News page {p + 1}", ""))
        items = []
        for n in range(8):
            href = f"/news/{p * 8 + n}.html"
            site.add(other_page(rng, href))
            items.append((href, site.pages[href].title))
        if p < 3:
            items.append((f"/news/?p={p + 1}", "Older"))
        _append_links(page, items)
    svc = site.add(Page("/services/", "Services", "<p>Offices and services.</p>"))
    site.add(other_page(rng, "/services/it/", "IT help desk"))
    rec = site.add(Page("/services/records/", "Office of records", "<p>Records kept by the office.</p>"))
    _append_links(svc, [("/services/it/", "IT help desk"), ("/services/records/", "Office of records")])
    arch = site.add(Page("/services/records/archive/", "Archive", "<p>Documents by year.</p>"))
    _append_links(rec, [("/services/records/archive/", "Archive"), ("/about", "Opening hours")])
    years = []
    for y in YEARS[:4]:
        yp = site.add(Page(f"/services/records/archive/{y}/", f"{y}", f"<p>Documents of {y}.</p>"))
        items = []
        for prov in rng.sample(PROVINCES, 6):
            href = f"/services/records/archive/{y}/{prov.lower()}.html"
            site.add(target_page(rng, "tree", href, y, prov))
            items.append((href, f"{prov} {y}"))
        for n in range(2):
            href = f"/services/records/archive/{y}/minutes-{n}.html"
            site.add(other_page(rng, href, f"Meeting minutes {y}-{n}"))
            items.append((href, f"Minutes {n}"))
        rng.shuffle(items)
        _append_links(yp, items)
        years.append((f"/services/records/archive/{y}/", str(y)))
    _append_links(arch, years)
    return site


def make_cms(rng: random.Random) -> Site:
    site = Site("cms", "Eastern College", "table",
                nav=[("/index.php", "Home"), ("/index.php?cat=1", "News"), ("/index.php?cat=2", "Events"),
                     ("/index.php?cat=3", "Notices"), ("/index.php?cat=4", "Admissions"),
                     ("/index.php?cat=5", "Sports")], root="/index.php")
    site.add(Page("/index.php", "Eastern College home", _prose(rng, "campus")))
    next_id = 100
    cats = {1: "News", 2: "Events", 3: "Notices", 4: "Admissions", 5: "Sports"}
    for cat, name in cats.items():
        items: list[Page] = []
        count = {1: 30, 2: 20, 3: 36, 4: 14, 5: 12}[cat]
        for n in range(count):
            path = f"/index.php?id={next_id}"
            next_id += rng.randint(1, 3)
            if cat == 3 and n % 3 != 2:
                y, prov = rng.choice(YEARS), rng.choice(PROVINCES)
                page = target_page(rng, "cms", path, y, prov, layout="table")
            elif cat == 3:
                what = rng.choice(["water outage", "exam rooms", "holiday", "parking"])
                page = other_page(rng, path, f"Notice: {what} {n}")
            elif cat == 4:
                page = [admission_news, scholarship_page, plan_page][n % 3](rng, path, n)
            elif cat == 5:
                page = sports_page(rng, path, n)
            else:
                page = other_page(rng, path)
            items.append(site.add(page))
        rng.shuffle(items)
        pages = [items[i:i + 8] for i in range(0, len(items), 8)]
        for p, chunk in enumerate(pages):
            path = f"/index.php?cat={cat}" + (f"&page={p + 1}" if p else "")
            listing = site.add(Page(path, f"{name} - page {p + 1}", ""))
            links = [(i.path, i.title) for i in chunk]
            if p + 1 < len(pages):
                links.append((f"/index.php?cat={cat}&page={p + 2}", "Next"))
            _append_links(listing, links)
    return site


def make_wiki(rng: random.Random) -> Site:
    site = Site("wiki", "Western University Wiki", "aside",
                nav=[("/wiki/Main_Page", "Main page"), ("/tags", "Tags"), ("/wiki/Help", "Help")],
                footer=[("/wiki/About", "About the wiki")])
    tags = ["history", "people", "buildings", "sports", "records", "clubs", "teaching"]
    pages: list[Page] = []
    for n in range(70):
        page = other_page(rng, f"/wiki/Page_{n}")
        page.path = f"/wiki/{page.title.replace(' ', '_')}"
        pages.append(page)
    for n in range(8):
        pages.append(sports_page(rng, f"/wiki/Team_scores_{n}", n))
    for n in range(6):
        pages.append(scholarship_page(rng, f"/wiki/Scholarship_{n}", n))
    targets = []
    for y in YEARS:
        for prov in rng.sample(PROVINCES, 4):
            t = target_page(rng, "wiki", f"/wiki/Minimum_marks_{y}_{prov}", y, prov, layout="list")
            targets.append(t)
    for p in pages + targets:
        site.add(p)
    site.add(other_page(rng, "/wiki/Help", "Help"))
    site.add(other_page(rng, "/wiki/About", "About the wiki"))
    tagged: dict[str, list[Page]] = {t: [] for t in tags}
    for p in pages:
        for t in rng.sample([t for t in tags if t != "records"], 2):
            tagged[t].append(p)
    for t in targets:
        tagged["records"].append(t)
        tagged["history"].append(t) if rng.random() < 0.15 else None
    for p in pages:
        see = rng.sample(pages, 3)
        _append_links(p, [(s.path, s.title) for s in see], "See also")
    for i, t in enumerate(targets):
        see = [targets[(i + 1) % len(targets)], rng.choice(pages)]
        _append_links(t, [(s.path, s.title) for s in see], "See also")
    for t, members in tagged.items():
        tp = site.add(Page(f"/tag/{t}", f"Tag: {t.title()}", ""))
        _append_links(tp, [(m.path, m.title) for m in members])
    site.add(Page("/tags", "Tags", "<ul>" + _links([(f"/tag/{t}", t.title()) for t in tags]) + "</ul>"))
    featured = rng.sample(pages, 10)
    site.add(Page("/wiki/Main_Page", "Main page",
                  _prose(rng, "campus") + "<ul>" + _links([(f.path, f.title) for f in featured]) + "</ul>"))
    site.add(Page("/", "Wiki", "<p><a href='/wiki/Main_Page'>Enter the wiki</a></p>"))
    return site


def make_blog(rng: random.Random) -> Site:
    site = Site("blog", "Southern Institute Blog", "header",
                nav=[("/blog/", "Latest"), ("/blog/archive", "Archive"), ("/downloads/", "Downloads"),
                     ("/blog/team", "Our team")])
    months = ["january", "march", "june", "september"]
    posts: list[Page] = []
    for y in YEARS[1:]:
        for m in months:
            for n in range(5):
                path = f"/blog/{y}/{m}/post-{n}"
                if n < 2 and m in ("june", "september"):
                    p = target_page(rng, "blog", path, y, rng.choice(PROVINCES))
                elif n == 2:
                    p = admission_news(rng, path, n) if m != "march" else plan_page(rng, path, n)
                else:
                    p = other_page(rng, path)
                posts.append(site.add(p))
    archive = site.add(Page("/blog/archive", "Archive", ""))
    _append_links(archive, [(f"/blog/{y}/", str(y)) for y in YEARS[1:]])
    for y in YEARS[1:]:
        yp = site.add(Page(f"/blog/{y}/", f"Posts of {y}", ""))
        _append_links(yp, [(f"/blog/{y}/{m}/", m.title()) for m in months])
        for m in months:
            mp = site.add(Page(f"/blog/{y}/{m}/", f"{m.title()} {y}", ""))
            _append_links(mp, [(p.path, "Read more") for p in posts if p.path.startswith(f"/blog/{y}/{m}/")])
    latest = [p for p in posts if p.kind != "target"][-8:]
    site.add(Page("/blog/", "Latest posts", "<ul>" + _links([(p.path, p.title) for p in latest]) + "</ul>"))
    site.add(other_page(rng, "/blog/team", "Our team"))
    dl = site.add(Page("/downloads/", "Downloads", ""))
    tts = []
    for n in range(10):
        site.add(timetable_page(rng, f"/downloads/timetable-{n}", f"Programme {n}"))
        tts.append((f"/downloads/timetable-{n}", f"Timetable {n}"))
    _append_links(dl, tts)
    site.add(Page("/", "Southern Institute", "<p><a href='/blog/'>Blog</a></p>"))
    return site


def make_portal(rng: random.Random) -> Site:
    depts = ["physics", "chemistry", "biology", "history", "music", "nursing"]
    nav = [(f"/d/{d}/", d.title()) for d in depts] + [(f"/d/{d}/news", f"{d.title()} news") for d in depts]
    nav += [("/", "Home"), ("/admission/", "Admission guide"), ("/life/", "Student life")]
    site = Site("portal", "Central Polytechnic", "mega", nav=nav,
                footer=[("/o/", "Open data"), ("/", "Privacy")])
    site.add(Page("/", "Central Polytechnic", _prose(rng, "campus")))
    for d in depts:
        dp = site.add(other_page(rng, f"/d/{d}/", f"Department of {d.title()}"))
        items = []
        for _ in range(8):
            href = f"/d/{d}/p/{rng.randint(1000, 9999)}"
            site.add(other_page(rng, href))
            items.append((href, site.pages[href].title))
        site.add(timetable_page(rng, f"/d/{d}/timetable", d.title()))
        _append_links(dp, [*items, (f"/d/{d}/timetable", "Timetable")])
        news = site.add(Page(f"/d/{d}/news", f"{d.title()} news", ""))
        nitems = []
        for n in range(4):
            href = f"/d/{d}/n/{n}"
            site.add(other_page(rng, href))
            nitems.append((href, site.pages[href].title))
        _append_links(news, nitems)
    guide = site.add(Page("/admission/", "Admission guide", "<p>How to apply.</p>"))
    g = []
    for n in range(8):
        href = f"/admission/{n}"
        site.add([admission_news, scholarship_page, plan_page][n % 3](rng, href, n))
        g.append((href, site.pages[href].title))
    _append_links(guide, g)
    life = site.add(Page("/life/", "Student life", ""))
    lifel = []
    for n in range(10):
        href = f"/life/{n}"
        site.add(sports_page(rng, href, n) if n < 4 else other_page(rng, href))
        lifel.append((href, site.pages[href].title))
    _append_links(life, lifel)
    office = site.add(Page("/o/", "Open data", "<p>Datasets published by our offices.</p>"))
    sets = []
    for s in ("st", "fin", "hr"):
        site.add(Page(f"/o/{s}/", f"Dataset {s.upper()}", ""))
        sets.append((f"/o/{s}/", f"Dataset {s.upper()}"))
    _append_links(office, sets)
    st = []
    for n in range(24):
        href = f"/o/st/{n}"
        site.add(target_page(rng, "portal", href, rng.choice(YEARS), rng.choice(PROVINCES)))
        st.append((href, f"Table {n}"))
    _append_links(site.pages["/o/st/"], st)
    for s in ("fin", "hr"):
        items = []
        for n in range(6):
            href = f"/o/{s}/{n}"
            site.add(other_page(rng, href, f"{s.upper()} report {n}"))
            items.append((href, f"Table {n}"))
        _append_links(site.pages[f"/o/{s}/"], items)
    return site


SHAPES = {"tree": make_tree, "cms": make_cms, "wiki": make_wiki, "blog": make_blog, "portal": make_portal}
TUNING = ("tree", "cms", "wiki", "blog")
HELD_OUT = ("portal",)


def make_site(shape: str, seed: int = 1) -> Site:
    return SHAPES[shape](random.Random(f"{shape}-{seed}"))


def reachable(site: Site, start: str = "/") -> set[str]:
    """Paths reachable from ``start`` by following the site's links (what a crawler can find)."""
    import re

    seen = {start}
    todo = [start]
    while todo:
        path = todo.pop()
        html = site.html(path) or ""
        for href in re.findall(r"href='([^']*)'", html) + re.findall(r'href="([^"]*)"', html):
            href = href.replace("&amp;", "&")
            if href in site.pages and href not in seen:
                seen.add(href)
                todo.append(href)
    return seen


LOGIN_FORM = ("<!doctype html><html><head><title>Log in</title></head><body><form method='post' "
              "action='/login'><input name='username'><input type='password' name='password'>"
              "<button type='submit'>Log in</button></form></body></html>")


def make_app(site: Site, password: str | None = None, expire_every: int = 0) -> web.Application:
    """Serve ``site``; with ``password``, every page needs a login (any user name, that password)
    and, with ``expire_every``, a session ends after that many pages (the crawl must log in again)."""
    sessions: dict[str, int] = {}

    async def page(request: web.Request) -> web.Response:
        if password is not None:
            sid = request.cookies.get("sid", "")
            if sid not in sessions:
                raise web.HTTPFound("/login")
            sessions[sid] += 1
            if expire_every and sessions[sid] >= expire_every:
                del sessions[sid]
        html = site.html(request.path_qs)
        if html is None:
            return web.Response(status=404, text="not found")
        return web.Response(text=html, content_type="text/html")

    async def login_form(request: web.Request) -> web.Response:
        return web.Response(text=LOGIN_FORM, content_type="text/html")

    async def login(request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("password") != password:
            return web.Response(text=LOGIN_FORM.replace("<form", "<p>Wrong username or password</p><form"),
                                content_type="text/html")
        sid = f"s{len(sessions)}-{random.random()}"
        sessions[sid] = 0
        response = web.HTTPFound("/")
        response.set_cookie("sid", sid)
        raise response

    app = web.Application()
    if password is not None:
        app.router.add_get("/login", login_form)
        app.router.add_post("/login", login)
    app.router.add_get("/{tail:.*}", page)
    return app
