"""What to crawl next: canonical URLs, scope, robots.txt, politeness and the persistent queue."""
