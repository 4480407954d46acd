from hippodrome.turfmaster.perft import main

main()
