# Time commands: the GTP time_settings/time_left pair and the KGS and KataGo dialects.
# gnugo-known-failures: 20 21 22 23 30
#   20-23, 30: GNU Go 3.8 has neither kgs-time_settings nor kata-time_settings.

boardsize 9
clear_board
10 time_settings 300 30 5
#? []

11 time_left b 120 0
#? []

12 time_left white 25 3
#? []

20 kgs-time_settings byoyomi 60 10 3
#? []

21 kgs-time_settings canadian 600 300 25
#? []

22 kgs-time_settings absolute 900
#? []

23 kgs-time_settings none
#? []

30 kata-time_settings fischer 300 5
#? []

# Malformed time settings are refused; the engine goes on.
kata-time_settings fischer 300
kgs-time_settings hourglass 60
time_left b -5 0
time_settings 300 30
# A second left on the last valid clock (Fischer 300+5): a quick move.
time_left b 1 0
50 genmove b
#? [[A-HJ][1-9]|pass]
