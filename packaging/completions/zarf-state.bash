# bash completion for zarf-state (and its kubectl plugin name, kubectl-zarf_state).
# Installed as share/bash-completion/completions/zarf-state; also printed by
# `zarf-state completion bash`, so `source <(zarf-state completion bash)` works.

_zarf_state_words() {
  # The subcommands and flags of one command path ("", "record", "query", ...).
  case "$1" in
    "") echo "inspect migrate record status replay config size bench prune ingest observe query verify
              report completion version help
              -h --help --version --max-object-size --max-depth" ;;
    inspect) echo "-f --filename -o --output --no-headers --now --show-secrets -q --quiet --cluster -n
                   --namespace --context --kubeconfig" ;;
    migrate) echo "-f --filename --to --dry-run -o --output --report-format --report --out --codec
                   --no-headers -q --quiet --cluster -n --namespace --context --kubeconfig" ;;
    record) echo "deploy remove component finish abandon" ;;
    "record deploy") echo "-f --filename --log --max-events --stdout --codec --package --digest
                           --source --cli-version --connectivity --config --components --fail
                           --begin-only --step-delay -v --verbose" ;;
    "record remove") echo "-f --filename --log --max-events --stdout --codec --config --components
                           --fail --begin-only --step-delay -v --verbose" ;;
    "record component") echo "-f --filename --log --max-events --stdout --codec --name --outcome" ;;
    "record finish") echo "-f --filename --log --max-events --stdout --codec --config --outcome" ;;
    "record abandon") echo "-f --filename --log --max-events --stdout --codec --outcome" ;;
    status) echo "-f --filename --db -o --output --no-headers --now -q --quiet --cluster -n --namespace --context
                  --kubeconfig" ;;
    replay) echo "-f --filename --log --package --db --at --upto --verify --dump --show-secrets --max-events -o --output --no-headers" ;;
    config) echo "digest diff" ;;
    "config digest") echo "--kind -f --filename --canonical" ;;
    "config diff") echo "--kind -o --output --no-headers --package --exit-code" ;;
    size) echo "-f --filename -o --output --no-headers --now --fail-above --compact -q --quiet --cluster -n --namespace --context
                --kubeconfig" ;;
    bench) echo "growth" ;;
    "bench growth") echo "--full --out --cycles --components --images --charts --values-bytes --max-events
                          --pin-digests --max-images --codecs -o --output --no-headers -q --quiet" ;;
    prune) echo "plan" ;;
    "prune plan") echo "--deployed --new --remove --others --db --no-others --unreadable --registry
                        --package --cluster -n --namespace --context --kubeconfig -o --output
                        --no-headers" ;;
    ingest) echo "--db -f --filename --full-dump --sync-every --no-sync --bulk -q --quiet --cluster
                  -n --namespace --context --kubeconfig -o --output --no-headers" ;;
    observe) echo "--db -f --filename --cluster -n --namespace --context --kubeconfig --watch" ;;
    query) echo "--db -o --output --no-headers --now history status image component source config-changed" ;;
    "query history") echo "--type --outcome --since --until --no-components" ;;
    "query status") echo "--outcome" ;;
    "query image") echo "--repository" ;;
    "query config-changed") echo "-f --filename --exit-code" ;;
    verify) echo "--db -o --output --no-headers -q --quiet" ;;
    report) echo "-f --filename --db --migrate-report --prune-plan --growth --now --out -q --quiet
                  --cluster -n --namespace --context --kubeconfig" ;;
    completion) echo "bash zsh fish" ;;
    version) echo "-o --output" ;;
    help) echo "inspect migrate record status replay config size bench prune ingest observe query verify
                report completion version" ;;
  esac
}

_zarf_state_formats() {
  # The -o formats command path $1 accepts.
  case "$1" in
    migrate) echo "json yaml" ;;
    ingest|version|"query config-changed") echo "table json yaml" ;;
    replay|verify|"config diff"|"prune plan"|"bench growth"|"query history") echo "table wide json yaml" ;;
    *) echo "table wide json yaml name" ;;
  esac
}

_zarf_state_kubectl() {
  # kubectl with the --kubeconfig and --context given on the line; nothing on
  # failure (no cluster, no kubectl), and never for long.
  local -a args=()
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      --kubeconfig|--context) ((i + 1 < COMP_CWORD)) && args+=("${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]}") ;;
      --kubeconfig=*|--context=*) args+=("${COMP_WORDS[i]}") ;;
    esac
  done
  kubectl "${args[@]}" --request-timeout=5s "$@" 2>/dev/null
}

_zarf_state_values() {
  # The choices of flag $1's value in command path $2; returns 1 when the
  # value is free text.
  case "$1" in
    -o|--output) _zarf_state_formats "$2" ;;
    -n|--namespace) _zarf_state_kubectl get namespaces -o name | sed 's|^namespace/||'; return 0 ;;
    --context) _zarf_state_kubectl config get-contexts -o name; return 0 ;;
    --report-format) echo "table json yaml" ;;
    --codec) echo "json compact auto" ;;
    --kind) echo "deploy remove" ;;
    --connectivity) echo "airgap connected" ;;
    --outcome) echo "InProgress Succeeded Failed Cancelled" ;;
    --type) echo "Deploy Remove" ;;
    --to) echo "v2 legacy" ;;
    --codecs) echo "json gzip compact" ;;
    *) return 1 ;;
  esac
}

_zarf_state() {
  local cur prev path word i
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev=""
  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD - 1]}"
  COMPREPLY=()

  # The command path: the words before the cursor that name subcommands.
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    if [[ " $(echo $(_zarf_state_words "$path")) " == *" $word "* ]]; then
      path="${path:+$path }$word"
    fi
  done

  # What was completed: words, files or directories (kubectl_complete-zarf_state
  # tells kubectl to complete the last two itself).
  _zarf_state_kind=words
  local values
  if values=$(_zarf_state_values "$prev" "$path"); then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
    return 0
  fi
  case "$prev" in
    -f|--filename|--log|--package|--report|--out|--config|--deployed|--new|--others|--migrate-report|--prune-plan|--kubeconfig)
      _zarf_state_kind=files
      COMPREPLY=($(compgen -f -- "$cur"))
      return 0 ;;
    --db|--growth)
      _zarf_state_kind=dirs
      COMPREPLY=($(compgen -d -- "$cur"))
      return 0 ;;
  esac
  COMPREPLY=($(compgen -W "$(_zarf_state_words "$path")" -- "$cur"))
  if [[ ${#COMPREPLY[@]} -eq 0 && "$cur" != -* ]]; then
    _zarf_state_kind=files
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}

complete -o filenames -F _zarf_state zarf-state kubectl-zarf_state
