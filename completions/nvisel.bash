# bash completion for nvisel                                        -*- shell-script -*-

_nvisel() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    case $prev in
        --format | -O)
            mapfile -t COMPREPLY < <(compgen -W 'index uuid' -- "$cur")
            return
            ;;
        --account-as-free)
            mapfile -t COMPREPLY < <(compgen -u -- "$cur")
            return
            ;;
        --min-free-memory | -f | --min-total-memory | -t)
            mapfile -t COMPREPLY < <(compgen -W '1GiB 2GiB 4GiB 8GiB 16GiB 24GiB 32GiB 40GiB 80GiB' -- "$cur")
            return
            ;;
        --inherit | -i | --min-count | -c | --max-count | -C | --count | -n | \
            --max-gpu-utilization | -G | --max-memory-utilization | -M | --tolerance | --tol | \
            --sep | --separator | -s)
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '--help --version --inherit --account-as-free
            --min-count --max-count --count --min-free-memory --min-total-memory
            --max-gpu-utilization --max-memory-utilization --tolerance --tol --format --sep
            --separator --newline --null --no-sort
            -h -V -i -c -C -n -f -t -G -M -O -s -0 -S' -- "$cur")
    fi
}
complete -F _nvisel nvisel
