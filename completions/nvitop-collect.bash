# bash completion for nvitop-collect                                -*- shell-script -*-

_nvitop_collect() {
    local cur prev i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    # After "--" or the first non-option word, complete the job's command line as a command.
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --)
                _command_offset $((i + 1))
                return
                ;;
            --output | -o | --format | -f | --interval | -i | --every | -e | --tag | -t | \
                --devices | -d)
                ((i++))
                ;;
            -*) ;;
            *)
                _command_offset "$i"
                return
                ;;
        esac
    done

    case $prev in
        --output | -o)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --format | -f)
            mapfile -t COMPREPLY < <(compgen -W 'csv jsonl' -- "$cur")
            return
            ;;
        --devices | -d)
            mapfile -t COMPREPLY < <(compgen -W 'all' -- "$cur")
            return
            ;;
        --interval | -i | --every | -e | --tag | -t)
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '--output --format --interval --every --tag
            --devices --all-processes --cumulative --help --version
            -o -f -i -e -t -d -h -V --' -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
    fi
}
complete -F _nvitop_collect nvitop-collect
