# Protocol framing and the administrative commands of GTP version 2.
# gnugo-known-failures: 20 30 31 40 41
#   20: GNU Go answers its own name.  30/31: GNU Go has no kgs-rules/kata-get-rules
#   (it lists a different set).  40/41: GNU Go has no tengen-count / kata-list_time_settings.

10 protocol_version
#? [2]

20 name
#? [tengen]

21 version
#? [.+]

22 known_command play
#? [true]

23 known_command frobnicate
#? [false]

24 list_commands
#? [(.*\n)*play(\n.*)*]

# An unknown command is refused and the session goes on.
frobnicate
25 name
#? [.+]

26 boardsize 9
#? []

27 clear_board
#? []

28 komi -3.5
#? []

30 known_command kgs-rules
#? [true]

31 kata-get-rules
#? [\{.*"ko":"POSITIONAL".*\}]

40 tengen-count
#? [.*子.*\n.*stones.*]

41 kata-list_time_settings
#? [none\nabsolute\nbyoyomi\ncanadian\nfischer]
