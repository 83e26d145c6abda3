"""Social traversal: crawl a community as a graph of people and revisit them by update rate.

See docs/social.md. Modules: ``config`` (the [social] job section), ``extract`` (reading a person in the
live page), ``hook`` (the crawl), ``store`` (tables, diffs), ``rate``/``clock`` (revisit policy),
``recrawl``, ``graph`` (export and figures), ``demo`` (the demo site job), ``cli``.
"""
