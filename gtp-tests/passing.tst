# When to pass. Far behind early in the game, with no invitation from the opponent, a pass
# hands the game over: play on (resigning is not allowed yet in the opening).
# gnugo-known-failures:

loadsgf sgf/behind-early.sgf 27
10 genmove b
#? [!pass]

# Both sides' moves are still legal afterwards and the game goes on.
11 genmove w
#? [!resign]
