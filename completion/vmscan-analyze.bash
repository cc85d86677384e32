# bash completion for vmscan-analyze
_vmscan_analyze()
{
	local cur prev
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-f|--format) COMPREPLY=($(compgen -W "classic json openmetrics prometheus" -- "$cur")); return ;;
	-j|--json|--svg|--latencies|--thresholds|--junit|--openmetrics-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--missing) COMPREPLY=($(compgen -W "pass fail" -- "$cur")); return ;;
	--interval|--duration|--max-messages|--max-tasks|--threads|-t|--threshold|--name) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--format --json --openmetrics-file --svg --pretty --ignore-pid --latency-list --histogram
			--latencies --interval --duration --threshold --thresholds --name
			--relative --missing --allow-empty --junit --force --strict --max-messages
			--max-tasks --threads --quiet --help --version" -- "$cur"))
	elif [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W "live merge compare check" -- "$cur") $(compgen -f -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -F _vmscan_analyze vmscan-analyze
