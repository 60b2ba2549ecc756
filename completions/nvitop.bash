# bash completion for nvitop                                        -*- shell-script -*-

_nvitop() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    case $prev in
        --monitor | -m)
            mapfile -t COMPREPLY < <(compgen -W 'auto full compact' -- "$cur")
            return
            ;;
        --interval | --gpu-util-thresh | --mem-util-thresh | --at | --from | --to | --timeout | \
            --prometheus)
            return
            ;;
        --cacert | --cert | --key)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --hosts)
            # host:port lists are typed; @FILE names a file of hosts.
            if [[ $cur == @* ]]; then
                mapfile -t COMPREPLY < <(compgen -f -P @ -- "${cur#@}")
            fi
            return
            ;;
        --config | --record | --replay)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --only | -o)
            local count
            count=$(nvitop --json 2>/dev/null | grep -c '"mig_index": null')
            [ "${count:-0}" -gt 0 ] && mapfile -t COMPREPLY < <(compgen -W "$(seq 0 $((count - 1)))" -- "$cur")
            return
            ;;
        --user | -u)
            mapfile -t COMPREPLY < <(compgen -u -- "$cur")
            return
            ;;
        --pid | -p)
            mapfile -t COMPREPLY < <(compgen -W "$(nvitop --json 2>/dev/null |
                sed -n 's/^ *"pid": \([0-9]*\),$/\1/p' | sort -un)" -- "$cur")
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '--help --version --once --monitor --interval
            --no-unicode --ascii --readonly --json --query --colorful --force-color --light
            --gpu-util-thresh --mem-util-thresh --only --only-visible --compute
            --only-compute --graphics --only-graphics --user --pid --config --no-config
            --record --replay --at --from --to
            --hosts --prometheus --cacert --cert --key --timeout
            -h -V -1 -m -U -q -o -ov -c -C -g -G -u -p' -- "$cur")
    fi
}
complete -F _nvitop nvitop
