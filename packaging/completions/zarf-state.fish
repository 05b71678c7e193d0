# fish completion for zarf-state (and its kubectl plugin name, kubectl-zarf_state).
# Installed as share/fish/vendor_completions.d/zarf-state.fish; also printed by
# `zarf-state completion fish`, so `zarf-state completion fish | source` works.

# True when the command line's subcommand path (the non-flag words that name
# subcommands, in order) is exactly $argv.
function __zarf_state_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l path
    set -l level inspect migrate record status replay config size bench prune ingest observe query verify report completion version help
    for w in $words
        string match -q -- '-*' $w; and continue
        if contains -- $w $level
            set path $path $w
            switch "$path"
                case record
                    set level deploy remove component finish abandon
                case config
                    set level digest diff
                case bench
                    set level growth
                case prune
                    set level plan
                case query
                    set level history status image component source config-changed
                case '*'
                    set level
            end
        end
    end
    test "$path" = "$argv"
end

# kubectl with the --kubeconfig and --context given on the line; nothing on
# failure (no cluster, no kubectl), and never for long.
function __zarf_state_kubectl
    set -l words (commandline -opc)
    set -l args
    for i in (seq 2 (count $words))
        switch $words[$i]
            case --kubeconfig --context
                set -l next (math $i + 1)
                set -q words[$next]; and set args $args $words[$i] $words[$next]
            case '--kubeconfig=*' '--context=*'
                set args $args $words[$i]
        end
    end
    kubectl $args --request-timeout=5s $argv 2>/dev/null
end

for c in zarf-state kubectl-zarf_state
    complete -c $c -f
    complete -c $c -s h -l help -d 'Print help'
    complete -c $c -n '__zarf_state_path' -l version -d 'Print the version'
    complete -c $c -n '__zarf_state_path' -l max-object-size -x -d 'Largest input in bytes'
    complete -c $c -n '__zarf_state_path' -l max-depth -x -d 'Deepest JSON/YAML nesting'

    complete -c $c -n '__zarf_state_path' -a inspect -d 'Show each package (or the init state, redacted)'
    complete -c $c -n '__zarf_state_path' -a migrate -d 'Upgrade (or downgrade) every state object'
    complete -c $c -n '__zarf_state_path' -a record -d 'Append lifecycle events to a package Secret'
    complete -c $c -n '__zarf_state_path' -a status -d 'Derived status of each package'
    complete -c $c -n '__zarf_state_path' -a replay -d "Timeline of a package's events; drift report"
    complete -c $c -n '__zarf_state_path' -a config -d 'Digest or compare DeployConfig/RemoveConfig'
    complete -c $c -n '__zarf_state_path' -a size -d 'Secret bytes as JSON, gzip-JSON and compact'
    complete -c $c -n '__zarf_state_path' -a bench -d 'Benchmarks of Secret size'
    complete -c $c -n '__zarf_state_path' -a prune -d "Plan what Zarf's --prune would remove"
    complete -c $c -n '__zarf_state_path' -a ingest -d 'Load package Secrets into the local cache'
    complete -c $c -n '__zarf_state_path' -a observe -d 'Derive history from the writes to package Secrets'
    complete -c $c -n '__zarf_state_path' -a query -d 'Answer state questions from the local cache'
    complete -c $c -n '__zarf_state_path' -a verify -d "Check the local cache's consistency"
    complete -c $c -n '__zarf_state_path' -a report -d "Write one offline HTML page of the packages' state"
    complete -c $c -n '__zarf_state_path' -a completion -d 'Print a shell completion script'
    complete -c $c -n '__zarf_state_path' -a version -d 'Print the version'
    complete -c $c -n '__zarf_state_path' -a help -d 'Help for a command'
    complete -c $c -n '__zarf_state_path help' -a 'inspect migrate record status replay config size bench prune ingest observe query verify report completion version'

    # Flags several commands share.
    for p in inspect migrate status size 'config digest' 'query config-changed' 'record deploy' 'record remove' 'record component' 'record finish' 'record abandon' replay ingest observe
        complete -c $c -n "__zarf_state_path $p" -s f -l filename -r -F -d 'Input file (- for stdin)'
    end
    complete -c $c -n '__zarf_state_path ingest' -l no-headers -d 'Accepted; no header to leave out'
    for p in inspect status replay query
        complete -c $c -n "__zarf_state_path $p" -l no-headers -d 'Tables without a header line'
    end
    complete -c $c -n '__zarf_state_path inspect' -l now -x -d 'RFC 3339 time'
    for p in replay ingest observe query verify 'prune plan' status
        complete -c $c -n "__zarf_state_path $p" -l db -x -a '(__fish_complete_directories)' -d 'Cache directory'
    end

    complete -c $c -n '__zarf_state_path inspect' -l show-secrets -d 'Print the credentials'
    # -o: per command, the formats it accepts.
    for p in inspect status size query 'query status' 'query image' 'query component' 'query source'
        complete -c $c -n "__zarf_state_path $p" -s o -l output -x -a 'table wide json yaml name' -d 'Output format'
    end
    for p in replay verify 'config diff' 'prune plan' 'bench growth' 'query history'
        complete -c $c -n "__zarf_state_path $p" -s o -l output -x -a 'table wide json yaml' -d 'Output format'
    end
    for p in ingest version 'query config-changed'
        complete -c $c -n "__zarf_state_path $p" -s o -l output -x -a 'table json yaml' -d 'Output format'
    end
    complete -c $c -n '__zarf_state_path migrate' -s o -l output -x -a 'json yaml' -d 'Manifests format'

    for p in inspect migrate status size ingest observe report 'prune plan'
        complete -c $c -n "__zarf_state_path $p" -l cluster -d 'Read the cluster through kubectl'
        complete -c $c -n "__zarf_state_path $p" -s n -l namespace -x -a '(__zarf_state_kubectl get namespaces -o name | string replace -r "^namespace/" "")' -d 'Namespace (default zarf)'
        complete -c $c -n "__zarf_state_path $p" -l context -x -a '(__zarf_state_kubectl config get-contexts -o name)' -d 'kubeconfig context'
        complete -c $c -n "__zarf_state_path $p" -l kubeconfig -r -F -d 'kubeconfig file'
    end
    for p in inspect migrate status size ingest verify report 'bench growth'
        complete -c $c -n "__zarf_state_path $p" -s q -l quiet -d 'No progress line, no notes'
    end
    complete -c $c -n '__zarf_state_path size' -l fail-above -x -d 'Exit 1 over PCT% of the limit'
    complete -c $c -n '__zarf_state_path size' -l compact -d 'Measure the compact codec for every Secret'
    complete -c $c -n '__zarf_state_path size' -l now -x -d 'Ages as of this RFC 3339 time'
    for p in size verify 'config diff' 'prune plan' 'bench growth'
        complete -c $c -n "__zarf_state_path $p" -l no-headers -d 'No header line'
    end
    for p in 'config diff' 'query config-changed'
        complete -c $c -n "__zarf_state_path $p" -l exit-code -d 'Exit 1 when different'
    end
    complete -c $c -n '__zarf_state_path report' -s f -l filename -r -F -d 'Input file (- for stdin)'
    complete -c $c -n '__zarf_state_path report' -l db -x -a '(__fish_complete_directories)' -d 'Cache directory'
    complete -c $c -n '__zarf_state_path report' -l migrate-report -r -F -d 'migrate report JSON'
    complete -c $c -n '__zarf_state_path report' -l prune-plan -r -F -d 'prune plan JSON'
    complete -c $c -n '__zarf_state_path report' -l growth -x -a '(__fish_complete_directories)' -d 'bench growth directory'
    complete -c $c -n '__zarf_state_path report' -l now -x -d 'RFC 3339 time'
    complete -c $c -n '__zarf_state_path report' -l out -r -F -d 'The HTML page to write'

    complete -c $c -n '__zarf_state_path migrate' -l to -x -a 'v2 legacy' -d 'Target shape'
    complete -c $c -n '__zarf_state_path migrate' -l dry-run -d 'Write only the report'
    complete -c $c -n '__zarf_state_path migrate' -l report-format -x -a 'table json yaml' -d 'Report format'
    complete -c $c -n '__zarf_state_path migrate' -l report -r -F -d 'Report file'
    complete -c $c -n '__zarf_state_path migrate' -l out -r -F -d 'Manifests file'
    complete -c $c -n '__zarf_state_path migrate' -l codec -x -a 'json compact auto' -d 'Package Secret codec'
    complete -c $c -n '__zarf_state_path migrate' -l no-headers -d 'No header row in the report table'

    complete -c $c -n '__zarf_state_path record' -a 'deploy remove component finish abandon'
    for p in deploy remove component finish abandon
        set -l n "__zarf_state_path record $p"
        complete -c $c -n $n -l log -r -F -d 'Also append to this log'
        complete -c $c -n $n -l max-events -x -d 'Events the Secret keeps'
        complete -c $c -n $n -l stdout -d 'Print the new Secret'
        complete -c $c -n $n -l codec -x -a 'json compact auto' -d 'Codec'
    end
    complete -c $c -n '__zarf_state_path record deploy' -l package -r -F -d 'ZarfPackage definition'
    complete -c $c -n '__zarf_state_path record deploy' -l digest -x -d 'Package digest'
    complete -c $c -n '__zarf_state_path record deploy' -l source -x -d 'Package source'
    complete -c $c -n '__zarf_state_path record deploy' -l cli-version -x -d 'Zarf version'
    complete -c $c -n '__zarf_state_path record deploy' -l connectivity -x -a 'airgap connected'
    for p in deploy remove finish
        complete -c $c -n "__zarf_state_path record $p" -l config -r -F -d 'DeployConfig / RemoveConfig'
    end
    for p in deploy remove
        set -l n "__zarf_state_path record $p"
        complete -c $c -n $n -l components -x -d 'Only these components'
        complete -c $c -n $n -l fail -x -d 'Make this component fail'
        complete -c $c -n $n -l begin-only -d 'Only record the start'
        complete -c $c -n $n -l step-delay -x -d 'Milliseconds between steps'
        complete -c $c -n $n -s v -l verbose -d 'Print each step'
    end
    complete -c $c -n '__zarf_state_path record component' -l name -x -d 'Component'
    complete -c $c -n '__zarf_state_path record component' -l outcome -x -a 'InProgress Succeeded Failed'
    complete -c $c -n '__zarf_state_path record finish' -l outcome -x -a 'Succeeded Failed'
    complete -c $c -n '__zarf_state_path record abandon' -l outcome -x -a 'Cancelled Failed'

    complete -c $c -n '__zarf_state_path status' -l now -x -d 'RFC 3339 time'

    complete -c $c -n '__zarf_state_path replay' -l log -r -F -d 'Record log'
    complete -c $c -n '__zarf_state_path replay' -l package -x -d 'Package'
    complete -c $c -n '__zarf_state_path replay' -l at -x -d 'Stop at this RFC 3339 time'
    complete -c $c -n '__zarf_state_path replay' -l upto -x -d 'Stop after N records'
    complete -c $c -n '__zarf_state_path replay' -l verify -d 'Report drift'
    complete -c $c -n '__zarf_state_path replay' -l dump -d 'Print the records as JSON Lines'
    complete -c $c -n '__zarf_state_path replay' -l show-secrets -d 'With --dump: credentials as stored'
    complete -c $c -n '__zarf_state_path replay' -l max-events -x -d 'Event cap'

    complete -c $c -n '__zarf_state_path config' -a 'digest diff'
    complete -c $c -n '__zarf_state_path config digest' -l kind -x -a 'deploy remove'
    complete -c $c -n '__zarf_state_path config digest' -l canonical -d 'RFC 8785 canonical digest'
    complete -c $c -n '__zarf_state_path config diff' -l kind -x -a 'deploy remove'
    complete -c $c -n '__zarf_state_path config diff' -l package -r -F -d 'ZarfPackage definition'
    complete -c $c -n '__zarf_state_path config diff' -F

    complete -c $c -n '__zarf_state_path bench' -a growth
    set -l n '__zarf_state_path bench growth'
    complete -c $c -n $n -l out -x -a '(__fish_complete_directories)' -d 'Output directory'
    complete -c $c -n $n -l full -d 'The full run (minutes)'
    complete -c $c -n $n -l cycles -x
    complete -c $c -n $n -l components -x
    complete -c $c -n $n -l images -x
    complete -c $c -n $n -l charts -x
    complete -c $c -n $n -l values-bytes -x
    complete -c $c -n $n -l max-events -x
    complete -c $c -n $n -l pin-digests -d 'Pin images by digest'
    complete -c $c -n $n -l max-images -x
    complete -c $c -n $n -l codecs -x -a 'json gzip compact'

    complete -c $c -n '__zarf_state_path prune' -a plan
    set -l n '__zarf_state_path prune plan'
    complete -c $c -n $n -l deployed -r -F -d 'The deployed Secret'
    complete -c $c -n $n -l new -r -F -d 'The package to deploy'
    complete -c $c -n $n -l remove -d 'Plan a remove --prune'
    complete -c $c -n $n -l others -r -F -d 'Other Secrets'
    complete -c $c -n $n -l no-others -d 'No other package is deployed'
    complete -c $c -n $n -l unreadable -x -d 'What could not be read'
    complete -c $c -n $n -l registry -x -d 'Registry host'
    complete -c $c -n $n -l package -x -d 'The package to plan for'

    complete -c $c -n '__zarf_state_path ingest' -l full-dump -d 'The input is every package Secret'
    complete -c $c -n '__zarf_state_path ingest' -l sync-every -x -d 'Secrets per sync'
    complete -c $c -n '__zarf_state_path ingest' -l no-sync -d 'No fsync'
    complete -c $c -n '__zarf_state_path ingest' -l bulk -d 'No write-ahead log'
    complete -c $c -n '__zarf_state_path observe' -l watch -d 'Follow the Secrets until SIGINT/SIGTERM'

    complete -c $c -n '__zarf_state_path query' -l now -x -d 'RFC 3339 time'
    complete -c $c -n '__zarf_state_path query' -a 'history status image component source config-changed'
    complete -c $c -n '__zarf_state_path query history' -l type -x -a 'Deploy Remove'
    complete -c $c -n '__zarf_state_path query history' -l outcome -x -a 'InProgress Succeeded Failed Cancelled'
    complete -c $c -n '__zarf_state_path query history' -l since -x -d 'RFC 3339, inclusive'
    complete -c $c -n '__zarf_state_path query history' -l until -x -d 'RFC 3339, inclusive'
    complete -c $c -n '__zarf_state_path query history' -l no-components -d 'Package events only'
    complete -c $c -n '__zarf_state_path query status' -l outcome -x -a 'InProgress Succeeded Failed Cancelled'
    complete -c $c -n '__zarf_state_path query image' -l repository -d 'Any tag or digest'

    complete -c $c -n '__zarf_state_path completion' -a 'bash zsh fish'
end
