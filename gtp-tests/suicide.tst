# Suicide is illegal under the Chinese rules; capturing comes first, so a move without
# liberties that captures is legal. Suicide is allowed only when the rules say so.
# gnugo-known-failures: 40 41 42 43
#   40-43: GNU Go has no kata-set-rules, so suicide stays illegal for it.

boardsize 5
clear_board

# Single stone into the corner between two white stones.
play w B1
play w A2
10 is_legal b A1
#? [0]

11 play w A1
#? []

# Three stones: black A5 B5 would join at A4 with no liberty left.
clear_board
play b A5
play b B5
play w C5
play w B4
play w A3
20 is_legal b A4
#? [0]

play b A4
21 color A4
#? [empty]

# A stone without liberties that captures is legal: black A5 takes white B5, and the
# immediate retake at B5 is a ko.
clear_board
play w B5
play w A4
play b C5
play b B4
30 play b A5
#? []

31 color B5
#? [empty]

32 is_legal w B5
#? [0]

# With suicide allowed (Tromp-Taylor style) the same multi-stone suicide removes the chain.
clear_board
40 kata-set-rules {"suicide":true}
#? []

play b A5
play b B5
play w C5
play w B4
play w A3
41 play b A4
#? []

42 color A5
#? [empty]

43 play b A5
#? []
