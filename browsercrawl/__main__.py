from browsercrawl.cli import main

main()
