#!/bin/sh
# rein's launcher, fast path: computes the agent's Deno permission flags exactly as cli/launch.ts
# plans them (cli/_launch_plan.ts is the specification; tests/launch_sh_test.ts holds the two
# together) and execs Deno with them, so no launcher process stays behind and start-up pays for a
# shell instead of a second Deno. Anything it does not handle itself (loader variables, a model
# URL with user info or an IPv6 host, a path with a comma) goes to cli/launch.ts, which also
# words the errors.
#
#   sh cli/launch.sh [--entry PATH | --bundle-cache] [rein arguments…]
#
# `--bundle-cache` (the `agent` and `rein` tasks give it) starts the checkout's cached bundle of
# its current sources instead of cli/main.ts when the bundle is there and fresh, as `--entry`
# would; when it is missing or stale, this start runs from source and a refresh is started in the
# background (cli/bundle_cache.ts says how a stale bundle is never run). REIN_FROM_SOURCE set (not
# to 0) runs from source always.
#
# The Deno binary is $REIN_DENO when set (the installed command sets it); else the Deno that runs
# this script's parent when it is one (`deno task agent`, whichever Deno ran it: `/opt/deno/deno
# task agent`, or a Deno from npm whose bin folder is not on the PATH); else `deno` on the PATH.
set -u

deno=${REIN_DENO:-}
if [ -z "$deno" ]; then
  # Linux names the parent's program in /proc; elsewhere ps does (macOS prints its full path).
  parent=$(readlink "/proc/$PPID/exe" 2>/dev/null || ps -o comm= -p "$PPID" 2>/dev/null) || parent=""
  case ${parent##*/} in
    deno | deno.exe) [ -x "$parent" ] && deno=$parent ;;
  esac
fi
deno=${deno:-deno}
if ! command -v "$deno" >/dev/null 2>&1; then
  echo "rein: Cannot find Deno (\"$deno\"): put deno on the PATH, or set REIN_DENO to its path" >&2
  exit 1
fi
case $0 in
  */*) here=${0%/*} ;;
  *) here=. ;;
esac

# Physical paths are worked out by cd in this shell, there and back, not in $(…) subshells: a fork
# costs about a millisecond of every start. The environment Deno gets is the caller's: PWD and
# OLDPWD are put back before it starts (leave_dirs).
CDPATH=
given_pwd=${PWD-} given_oldpwd=${OLDPWD-} oldpwd_set=${OLDPWD+1}
if cd -P . 2>/dev/null; then start_dir=$PWD; else start_dir=""; fi

# REPLY: the physical path of the directory $1, or "" when it cannot be entered.
physical_dir() {
  if [ -z "$start_dir" ]; then
    REPLY=$(cd -P -- "$1" 2>/dev/null && pwd -P) || REPLY=""
    return
  fi
  REPLY=""
  if cd -P -- "$1" 2>/dev/null; then
    REPLY=$PWD
    if ! cd -P -- "$start_dir" 2>/dev/null; then
      echo "rein: Cannot return to the current directory (\"$start_dir\")" >&2
      exit 1
    fi
  fi
}

# PWD and OLDPWD as the caller set them, before Deno starts.
leave_dirs() {
  PWD=$given_pwd
  if [ -n "$oldpwd_set" ]; then OLDPWD=$given_oldpwd; else unset OLDPWD; fi
}

physical_dir "$here/.."
root=$REPLY
[ -n "$root" ] || exit 1

full_launcher() {
  leave_dirs
  exec "$deno" run --allow-read --allow-env --allow-run --no-prompt --quiet --no-config \
    "$root/cli/launch.ts" "$@"
}

# REPLY: $2 resolved against the absolute directory $1 and normalized, as resolvePath does.
resolve_path() {
  case $2 in
    /*) set -- "$2" ;;
    *) set -- "$1/$2" ;;
  esac
  REPLY=""
  saved_ifs=$IFS
  IFS=/
  set -f
  for part in $1; do
    case $part in
      "" | .) ;;
      ..) REPLY=${REPLY%/*} ;;
      *) REPLY="$REPLY/$part" ;;
    esac
  done
  set +f
  IFS=$saved_ifs
  REPLY=${REPLY:-/}
}

# Append $2 to the comma-joined list named $1 unless it is there already; a comma in a path
# cannot be written in a Deno flag list: it sets $comma, and cli/launch.ts refuses the path with
# the message.
comma=0
add_path() {
  case $2 in *,*) comma=1; return ;; esac
  eval "list=\${$1}"
  case ",$list," in
    *",$2,"*) ;;
    *) eval "$1=\${list:+\$list,}\$2" ;;
  esac
}

# Add $2 to list $1, and its real path too when it exists and differs (as `named` does).
add_named() {
  add_path "$1" "$2"
  if [ -d "$2" ]; then
    physical_dir "$2"
    real=$REPLY
  elif [ -L "$2" ]; then
    real=$(realpath -- "$2" 2>/dev/null) || real=""
  elif [ -e "$2" ]; then
    # Not a link: its folder's physical path and its name.
    case $2 in
      */*) physical_dir "${2%/*}/" ;;
      *) physical_dir . ;;
    esac
    real=""
    [ -n "$REPLY" ] && real=${REPLY%/}/${2##*/}
  else
    real=""
  fi
  if [ -n "$real" ] && [ "$real" != "$2" ]; then add_path "$1" "$real"; fi
}

entry="" bundle_cache=0
if [ "${1-}" = "--entry" ] && [ $# -ge 2 ]; then
  entry=$2
  shift 2
elif [ "${1-}" = "--bundle-cache" ]; then
  bundle_cache=1
  shift
fi

# Whether the bundle in folder $1 may run: its stamp is there, and its check (written by
# cli/bundle_cache.ts, sourced: no process but `find`) succeeds: this Deno is the one it was built
# for, and no input of it is missing or changed since the stamp.
bundle_fresh() {
  [ -f "$1/stamp" ] && [ -f "$1/fresh.sh" ] && . "$1/fresh.sh"
}

# Start cli/bundle_cache.ts detached (its own session where setsid is there, niced, its output to
# its log), unless a refresh is running or the checkout cannot be written.
refresh_bundle() {
  cache=$root/.bundle-cache
  [ -w "$root" ] || return 0
  case $root in *,*) return 0 ;; esac
  if [ -f "$cache/lock" ] && read -r holder <"$cache/lock" 2>/dev/null &&
    kill -0 "$holder" 2>/dev/null; then
    return 0
  fi
  [ -d "$cache" ] || mkdir "$cache" 2>/dev/null || return 0
  detach=nohup
  command -v setsid >/dev/null 2>&1 && detach=setsid
  (
    exec "$detach" nice -n 10 "$deno" run --quiet --no-config --no-prompt --allow-read \
      "--allow-write=$root" --allow-run --allow-env "$root/cli/bundle_cache.ts" "$deno" \
      </dev/null >>"$cache/refresh.log" 2>&1 &
  )
}

if [ $bundle_cache = 1 ]; then
  case ${REIN_FROM_SOURCE:-0} in
    0)
      # The bundle is for one Deno binary: a Deno found on the PATH is named by its path.
      case $deno in */*) ;; *) deno=$(command -v "$deno") ;; esac
      bundle_key=""
      [ -f "$root/.bundle-cache/current" ] && read -r bundle_key <"$root/.bundle-cache/current"
      if [ -n "$bundle_key" ] && bundle_fresh "$root/.bundle-at-$bundle_key"; then
        entry=$root/.bundle-at-$bundle_key/main.js
      else
        refresh_bundle
      fi
      ;;
  esac
fi

# The second and third arguments that are not options or their values (as commander reads a
# command's arguments): `log salvage [LOG]`.
words=0 word2="" word3=""
add_word() {
  words=$((words + 1))
  case $words in
    2) word2=$1 ;;
    3) word3=$1 ;;
  esac
}

workspace="" log="" settings="" plugin="" plugin_value="" show=0 first="" taking="" ended=0
mcp="" mcp_value=""
view_open=0 store=""
for arg do
  if [ $ended = 1 ]; then
    [ -z "$first" ] && first=$arg
    add_word "$arg"
    continue
  fi
  if [ -n "$taking" ]; then
    eval "$taking=\$arg"
    taking=""
    continue
  fi
  case $arg in
    --) ended=1 ;;
    --show-permissions) show=1; continue ;;
    --open) view_open=1 ;;
    --workspace | --log | --settings)
      taking=${arg#--}
      [ -z "$first" ] && first=$arg
      continue
      ;;
    --plugin-dir)
      plugin=1 taking=plugin_value
      [ -z "$first" ] && first=$arg
      continue
      ;;
    --workspace=*) workspace=${arg#*=} ;;
    --log=*) log=${arg#*=} ;;
    --settings=*) settings=${arg#*=} ;;
    --plugin-dir=*) plugin=1 ;;
    --mcp-config)
      mcp=1 taking=mcp_value
      [ -z "$first" ] && first=$arg
      continue
      ;;
    --mcp-config=*) mcp=1 ;;
    --store)
      taking=store
      [ -z "$first" ] && first=$arg
      continue
      ;;
    --store=*) store=${arg#*=} ;;
    -*) ;;
    *) add_word "$arg" ;;
  esac
  [ -z "$first" ] && first=$arg
done
case $first in
  state | replay | sessions | tasks | help | log | -h | --help | -V | --version) read_only=1 ;;
  *) read_only=0 ;;
esac
# `rein view`: read-only, and listening on 127.0.0.1 only (with --open, it starts the browser).
view_flags=""
if [ "$first" = view ]; then
  read_only=1 view_flags=--allow-net=127.0.0.1
  [ $view_open = 1 ] && view_flags="$view_flags --allow-run=xdg-open,open"
fi
# Claude Code's ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json when set), where workspace trust
# is kept, and the temporary file rein renames over it (core/settings/trust.ts), added to $1.
add_claude_json() {
  dir=${CLAUDE_CONFIG_DIR:-${HOME-}}
  case $dir in
    /*)
      resolve_path "$dir" .claude.json
      file=$REPLY
      add_named "$1" "$file"
      add_named "$1" "$file.rein.tmp"
      ;;
  esac
}

# `rein mcp serve`: read the workspace and the log's folder only, start rg only, no net, no
# write; the other `rein mcp` commands: read anything, write the project's .mcp.json and
# ~/.claude.json (and the temporary file renamed over each) only.
if [ "$first" = mcp ]; then
  if [ -n "$start_dir" ]; then cwd=$start_dir; else cwd=$(pwd -P); fi
  caller=${REIN_CALLER_DIR:-$cwd}
  resolve_path "$caller" "${workspace:-.}"
  mcp_dir=$REPLY
  mcp_files=""
  if [ "$word2" = serve ]; then
    add_named mcp_files "$mcp_dir"
    if [ -n "$log" ]; then
      resolve_path "$caller" "$log"
      log_dir=${REPLY%/*}
      add_named mcp_files "${log_dir:-/}"
    else
      add_named mcp_files "$mcp_dir/.rein"
    fi
    # The machine key (core/effects/machine_key.ts) checks the log's snapshots.
    case ${XDG_STATE_HOME-} in
      /*) resolve_path "$XDG_STATE_HOME" rein; add_named mcp_files "$REPLY" ;;
      *)
        case ${HOME-} in
          /*) resolve_path "$HOME" .local/state/rein; add_named mcp_files "$REPLY" ;;
        esac
        ;;
    esac
    # The bundle's folder: its chunks are imported when first used (cli/build.ts).
    if [ -n "$entry" ]; then
      resolve_path "$root" "$entry"
      add_named mcp_files "${REPLY%/*}"
    fi
    set -- --allow-read="$mcp_files" --allow-run=rg \
      --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME --no-prompt -- "$@"
    v8=--v8-flags=--max-semi-space-size=8
  else
    physical_dir "$mcp_dir"
    real=$REPLY
    add_path mcp_files "$mcp_dir/.mcp.json"
    add_path mcp_files "$mcp_dir/.mcp.json.rein.tmp"
    if [ -n "$real" ] && [ "$real" != "$mcp_dir" ]; then
      add_path mcp_files "$real/.mcp.json"
      add_path mcp_files "$real/.mcp.json.rein.tmp"
    fi
    add_claude_json mcp_files
    set -- --allow-read --allow-write="$mcp_files" \
      --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR --no-prompt -- "$@"
    v8=--v8-flags=--max-semi-space-size=1
  fi
  if [ $comma = 1 ]; then
    while [ "$1" != -- ]; do shift; done
    shift
    full_launcher ${entry:+--entry "$entry"} "$@"
  fi
  if [ $show = 1 ]; then
    while [ "$1" != -- ]; do printf '%s\n' "$1"; shift; done
    exit 0
  fi
  # The permission flags, then rein's module, then rein's arguments.
  flags_count=0
  for arg do
    [ "$arg" = -- ] && break
    flags_count=$((flags_count + 1))
  done
  if [ -n "$entry" ]; then
    resolve_path "$root" "$entry"
    module=$REPLY config=--no-config
  else
    module=$root/cli/main.ts config="--config=$root/deno.json"
  fi
  # Rotate (only positional parameters hold arguments with spaces in POSIX sh): the flags go to
  # the end, the module replaces `--`, then the module and rein's arguments go after the flags.
  i=0
  while [ $i -lt "$flags_count" ]; do
    set -- "$@" "$1"
    shift
    i=$((i + 1))
  done
  shift
  set -- "$module" "$@"
  i=$(($# - flags_count))
  while [ $i -gt 0 ]; do
    set -- "$@" "$1"
    shift
    i=$((i - 1))
  done
  leave_dirs
  exec "$deno" run --quiet "$v8" "$config" "$@"
fi

trust=0
if [ "$first" = trust ]; then
  # `rein trust`: read anything, write ~/.claude.json only.
  trust=1
  readwrite=""
  add_claude_json readwrite
fi
salvage=0
if [ "$first" = log ] && [ "$word2" = salvage ]; then
  read_only=0 salvage=1
  # Write access to the log's directory only: its argument, else --log, else the workspace's.
  if [ -n "$start_dir" ]; then cwd=$start_dir; else cwd=$(pwd -P); fi
  caller=${REIN_CALLER_DIR:-$cwd}
  given=${word3:-$log}
  if [ -n "$given" ]; then
    resolve_path "$caller" "$given"
    log_dir=${REPLY%/*}
    log_dir=${log_dir:-/}
  else
    resolve_path "$caller" "${workspace:-.}"
    log_dir="$REPLY/.rein"
  fi
  readwrite=""
  add_named readwrite "$log_dir"
fi

if [ $read_only = 0 ] && [ $salvage = 0 ] && [ $trust = 0 ]; then
  case "$(export -p)" in
    *"export LD_"* | *"export ld_"* | *"export DYLD_"* | *"export dyld_"* | *" LD_"*=* | *" DYLD_"*=*)
      full_launcher ${entry:+--entry "$entry"} "$@" ;;
  esac
  url=${ANTHROPIC_BASE_URL:-https://api.anthropic.com}
  case $url in
    http://*) scheme=http rest=${url#http://} ;;
    https://*) scheme=https rest=${url#https://} ;;
    *) full_launcher ${entry:+--entry "$entry"} "$@" ;;
  esac
  authority=${rest%%[/?#]*}
  case $authority in
    "" | *@* | *\[* | *[A-Z]* | *:*:*) full_launcher ${entry:+--entry "$entry"} "$@" ;;
  esac
  host=${authority%%:*}
  port=""
  case $authority in *:*) port=${authority#*:} ;; esac
  case $scheme:$port in
    http:80 | https:443 | *:) net=$host ;;
    *) net=$host:$port ;;
  esac

  if [ -n "$start_dir" ]; then cwd=$start_dir; else cwd=$(pwd -P); fi
  caller=${REIN_CALLER_DIR:-$cwd}
  readwrite="" read=""
  resolve_path "$caller" "${workspace:-.}"
  workspace_path=$REPLY
  add_named readwrite "$workspace_path"
  if [ -n "$log" ]; then
    resolve_path "$caller" "$log"
    log_dir=${REPLY%/*}
    add_named readwrite "${log_dir:-/}"
  fi
  resolve_path "$cwd" "${TMPDIR:-/tmp}"
  add_named readwrite "$REPLY"
  # The machine key (core/effects/machine_key.ts), made on the first run.
  case ${XDG_STATE_HOME-} in
    /*) resolve_path "$XDG_STATE_HOME" rein; add_named readwrite "$REPLY" ;;
    *)
      case ${HOME-} in
        /*) resolve_path "$HOME" .local/state/rein; add_named readwrite "$REPLY" ;;
      esac
      ;;
  esac
  # rein's clones of the git marketplaces and plugins the settings enable
  # (core/plugins/marketplace_clone.ts), made when first needed.
  case ${XDG_CACHE_HOME-} in
    /*) resolve_path "$XDG_CACHE_HOME" rein/plugins; add_named readwrite "$REPLY" ;;
    *)
      case ${HOME-} in
        /*) resolve_path "$HOME" .cache/rein/plugins; add_named readwrite "$REPLY" ;;
      esac
      ;;
  esac
  # Claude Code's workspace trust, read at start and written when the REPL's question is
  # answered yes.
  add_claude_json readwrite
  read=$readwrite
  case ${HOME-} in
    /*)
      resolve_path "$HOME" ".claude"
      add_named read "$REPLY"
      ;;
  esac
  # Claude Code's plugins where CLAUDE_CONFIG_DIR moves them, read for the plugins the settings
  # enable.
  case ${CLAUDE_CONFIG_DIR-} in
    /*) resolve_path "$CLAUDE_CONFIG_DIR" plugins; add_named read "$REPLY" ;;
  esac
  if [ -n "$settings" ]; then
    resolve_path "$workspace_path" "$settings"
    add_named read "$REPLY"
  fi
  # rein's bundled skills, read when a session starts.
  add_named read "$root/skills"
  # The bundle's folder: its chunks are imported when first used (cli/build.ts).
  if [ -n "$entry" ]; then
    resolve_path "$root" "$entry"
    add_named read "${REPLY%/*}"
  fi
  # The repository the workspace is in, when it is a subdirectory of one: its CLAUDE.md files
  # and git HEAD above the workspace are read when a session starts.
  if [ ! -e "$workspace_path/.git" ]; then
    dir=$workspace_path
    while [ "$dir" != "/" ] && [ -n "$dir" ]; do
      dir=${dir%/*}
      dir=${dir:-/}
      [ "$dir" = "/" ] && break
      if [ -e "$dir/.git" ]; then
        add_named read "$dir"
        break
      fi
    done
  fi
fi

if [ $comma = 1 ]; then full_launcher ${entry:+--entry "$entry"} "$@"; fi
# A log command, rein view or the agent on a PostgreSQL store (--store, else REIN_STORE) reaches the
# database's host: cli/launch.ts grants it (cli/_launch_flags.ts's storeHost).
if [ $salvage = 0 ] && [ $trust = 0 ] && [ -n "${store:-${REIN_STORE-}}" ]; then
  full_launcher ${entry:+--entry "$entry"} "$@"
fi
# Plugin folders (--plugin-dir, repeatable) are read by the agent: cli/launch.ts names them.
if [ -n "$plugin" ]; then full_launcher ${entry:+--entry "$entry"} "$@"; fi
# MCP servers: a remote one's host is granted by cli/launch.ts (cli/_launch_mcp.ts), which reads
# --mcp-config, the workspace's .mcp.json and ~/.claude.json's servers; without any, nothing more.
if [ $read_only = 0 ] && [ $salvage = 0 ] && [ $trust = 0 ]; then
  if [ -n "$mcp" ] || [ -e "$workspace_path/.mcp.json" ]; then
    full_launcher ${entry:+--entry "$entry"} "$@"
  fi
  claude_json=${CLAUDE_CONFIG_DIR:-${HOME-}}/.claude.json
  if [ -f "$claude_json" ] && grep -qF '"url"' "$claude_json" 2>/dev/null; then
    full_launcher ${entry:+--entry "$entry"} "$@"
  fi
fi
# Marketplace folders the person's settings may name (an extraKnownMarketplaces source of kind
# directory or file) are read by the agent: cli/launch.ts reads the settings and names them.
if [ $read_only = 0 ] && [ $salvage = 0 ] && [ $trust = 0 ]; then
  case ${HOME-} in
    /*)
      marketplaces=0
      if [ -f "$HOME/.claude/settings.json" ]; then
        # Only the loop reads from the file: rein starts after it, on the launcher's own input.
        while IFS= read -r line || [ -n "$line" ]; do
          case $line in
            *'"directory"'* | *'"file"'*) marketplaces=1 && break ;;
          esac
        done <"$HOME/.claude/settings.json"
      fi
      if [ $marketplaces = 1 ]; then full_launcher ${entry:+--entry "$entry"} "$@"; fi
      ;;
  esac
fi

if [ $show = 1 ]; then
  if [ $read_only = 1 ]; then
    printf '%s\n' --allow-read $view_flags --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME \
      --no-prompt
  elif [ $salvage = 1 ]; then
    printf '%s\n' --allow-read "--allow-write=$readwrite" \
      --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME --no-prompt
  elif [ $trust = 1 ]; then
    printf '%s\n' --allow-read "--allow-write=$readwrite" \
      --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR --no-prompt
  else
    printf '%s\n' "--allow-read=$read" "--allow-write=$readwrite" "--allow-net=$net" \
      --allow-env --allow-run=bash,bwrap,setpriv,setsid,rg,git --no-prompt
  fi
  exit 0
fi

if [ -n "$entry" ]; then
  resolve_path "$root" "$entry"
  set -- "$REPLY" "$@"
  config=--no-config
else
  set -- "$root/cli/main.ts" "$@"
  config="--config=$root/deno.json"
fi
# The commands that stream a log get a young generation that holds a chunk of decoded events.
if [ $read_only = 1 ]; then
  set -- --v8-flags=--max-semi-space-size=8 "$config" --allow-read $view_flags \
    --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME --no-prompt "$@"
elif [ $salvage = 1 ]; then
  set -- --v8-flags=--max-semi-space-size=8 "$config" --allow-read "--allow-write=$readwrite" \
    --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME --no-prompt "$@"
elif [ $trust = 1 ]; then
  set -- --v8-flags=--max-semi-space-size=1 "$config" --allow-read "--allow-write=$readwrite" \
    --allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR --no-prompt "$@"
else
  # A teammate's process (`rein teammate`) compiles no further than the baseline (Sparkplug):
  # less memory, no slower there (cli/_launch_plan.ts).
  v8=--v8-flags=--max-semi-space-size=1
  [ "$first" = teammate ] && v8=$v8,--max-opt=1
  set -- "$v8" "$config" "--allow-read=$read" \
    "--allow-write=$readwrite" "--allow-net=$net" --allow-env --allow-run=bash,bwrap,setpriv,setsid,rg,git \
    --no-prompt "$@"
fi
leave_dirs
exec "$deno" run --quiet "$@"
