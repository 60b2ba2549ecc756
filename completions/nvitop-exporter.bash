# bash completion for nvitop-exporter                               -*- shell-script -*-

_nvitop_exporter() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    case $prev in
        --certfile | --keyfile | --client-cafile)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --client-capath)
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return
            ;;
        --bind-address | --bind | -B)
            mapfile -t COMPREPLY < <(compgen -W '127.0.0.1 0.0.0.0 :: ::1' -- "$cur")
            return
            ;;
        --hostname | --host | -H)
            mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")
            return
            ;;
        --port | -p | --interval)
            return
            ;;
        --tls-min-version)
            mapfile -t COMPREPLY < <(compgen -W '1.0 1.1 1.2 1.3' -- "$cur")
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W '--help --version --hostname --host --bind-address
            --bind --port --interval --certfile --keyfile --client-cafile --client-capath
            --client-auth-required --tls-min-version -h -V -H -B -p' -- "$cur")
    fi
}
complete -F _nvitop_exporter nvitop-exporter
