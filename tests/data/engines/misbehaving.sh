#!/bin/sh
# A pacru engine that misbehaves on its first "go", as $1 says:
#   illegal  answers a move that is not legal (a chevron that is not there);
#   silent   never answers (and stays alive);
#   crash    exits with status 3;
#   mute     never answers the greeting.
set -f
mode="$1"
while IFS= read -r line; do
    set -- $line
    case "$1" in
        pacru) [ "$mode" = mute ] || { echo "id name misbehaving-$mode"; echo "pacruok"; } ;;
        isready) echo "readyok" ;;
        go)
            case "$mode" in
                illegal) echo "bestmove e5-e6" ;;
                crash) exit 3 ;;
            esac ;;
        quit) exit 0 ;;
    esac
done
