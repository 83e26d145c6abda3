"""The crawl loop: scheduler, fetchers (browser and HTTP), result writer, progress."""
