(;FF[4]GM[1]CA[UTF-8]AP[tengen:0.1]SZ[19]KM[7.5]RU[Chinese]
)
