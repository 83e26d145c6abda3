"""Commands that combine several parts (crawl, induce, recrawl, stats, export), so they sit above them."""
