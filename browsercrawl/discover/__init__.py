"""Discovery: from one person's page to the ``[social]`` job that crawls their community."""
