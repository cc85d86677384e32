# bash completion for vmscan-analyze
# (tests/e2e/completion.py holds it to the options of cmd/options.c)

# COMPREPLY: the files and directories that begin with $1, one word each
# (names with spaces too), '/' after a directory as for any file name
_vmscan_analyze_files()
{
	local IFS=$'\n'
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$1"))
}

_vmscan_analyze()
{
	local cur prev
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	# "--json=FILE": bash splits the word at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi
	case $prev in
	-f|--format) COMPREPLY=($(compgen -W "classic json openmetrics prometheus" -- "$cur")); return ;;
	# every option that takes a path
	-j|--json|--svg|--latencies|--thresholds|--junit|--openmetrics-file)
		_vmscan_analyze_files "$cur"; return ;;
	--missing) COMPREPLY=($(compgen -W "pass fail" -- "$cur")); return ;;
	--interval|--duration|--max-messages|--max-tasks|--threads|-t|--threshold|--name|--max-cgroups|--listen|--group) return ;;
	--pid|--comm|--cpu|--since|--until|--instance|--top) return ;;
	--sort) COMPREPLY=($(compgen -W "reclaims wakeup_kswapd_requests wakeups rewakeups pages_scanned
		pages_reclaimed file_sync anon_sync file_async anon_async latency_ns awake_ns" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--format --json --openmetrics-file --svg --pretty --ignore-pid --latency-list --histogram
			--latencies --interval --duration --max-cgroups --listen --threshold --thresholds --name
			--group --relative --missing --allow-empty --junit --force --strict --max-messages
			--max-tasks --threads --unwrap --pid --comm --cpu --since --until --instance --sort --top
			--quiet --help --version" -- "$cur"))
	elif [[ $COMP_CWORD -eq 1 ]]; then
		_vmscan_analyze_files "$cur"
		COMPREPLY+=($(compgen -W "live merge compare check" -- "$cur"))
	else
		_vmscan_analyze_files "$cur"
	fi
}
complete -F _vmscan_analyze vmscan-analyze
