#!/bin/sh
# A pacru engine in POSIX shell: it asks for the legal moves and plays the first one.
set -f  # moves such as e5>(a1,a2) are words, not patterns
first=""
while IFS= read -r line; do
    set -- $line
    case "$1" in
        pacru) echo "id name first-move"; echo "id author pacru tests"
               echo "option legalmoves"; echo "pacruok" ;;
        isready) echo "readyok" ;;
        legalmoves) first="$2" ;;
        go) echo "bestmove $first" ;;
        quit) exit 0 ;;
    esac
done
