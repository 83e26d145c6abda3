"""Browser, contexts and logins: everything that gives the crawl an authenticated browser."""
