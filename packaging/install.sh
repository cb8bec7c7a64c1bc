#!/bin/sh
# Put Parlour in your desktop's application menu — for you only, no root needed.
#
#   ./install.sh              from inside the unpacked parlour/ folder
#   ./install.sh --uninstall  take it out of the menu again
#   ./install.sh DIR          the bundle is in DIR (default: this script's folder)
#
# It writes, under ${XDG_DATA_HOME:-~/.local/share}:
#   applications/parlour.desktop            Exec= points at DIR/parlour
#   icons/hicolor/scalable/apps/parlour.svg and icons/hicolor/256x256/apps/parlour.png
# and links ~/.local/bin/parlour to DIR/parlour (so `parlour replay FILE` works in a
# terminal) unless something else already has that name. Nothing is copied out of
# DIR, so keep the folder where it is; move it, and run this again.
set -eu

uninstall=0
dir=""
for arg in "$@"; do
    case "$arg" in
        --uninstall) uninstall=1 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "install.sh: unknown option $arg" >&2; exit 2 ;;
        *) dir="$arg" ;;
    esac
done

data="${XDG_DATA_HOME:-$HOME/.local/share}"
apps="$data/applications"
icons="$data/icons/hicolor"
bin="$HOME/.local/bin"

refresh_menus() {
    # Menus notice new entries on their own; these just make it immediate where present.
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q "$icons" 2>/dev/null || true
}

# Is ~/.local/bin/parlour our link (to a bundle's parlour, or to one since deleted)?
# A parlour installed some other way (pipx, a package) is never touched.
our_link() {
    [ -L "$bin/parlour" ] || return 1
    target="$(readlink "$bin/parlour")"
    case "$target" in */parlour) ;; *) return 1 ;; esac
    [ ! -e "$target" ] || [ -f "$(dirname "$target")/install.sh" ]
}

if [ "$uninstall" = 1 ]; then
    rm -f "$apps/parlour.desktop" "$icons/scalable/apps/parlour.svg" "$icons/256x256/apps/parlour.png"
    if our_link; then rm -f "$bin/parlour"; fi
    refresh_menus
    echo "Parlour is out of the menu. Delete its folder to remove it completely."
    exit 0
fi

[ -n "$dir" ] || dir="$(dirname "$0")"
dir="$(cd "$dir" && pwd -P)"
exe="$dir/parlour"
if [ ! -x "$exe" ]; then
    echo "install.sh: no parlour program in $dir — run the install.sh inside the unpacked" >&2
    echo "parlour/ folder, or give that folder as an argument." >&2
    exit 1
fi
assets="$dir/_internal/assets"
[ -d "$assets" ] || assets="$dir/assets"
if [ ! -f "$assets/parlour.desktop" ]; then
    echo "install.sh: $dir has no assets/parlour.desktop; is it a Parlour bundle?" >&2
    exit 1
fi

mkdir -p "$apps" "$icons/scalable/apps" "$icons/256x256/apps"
cp "$assets/icons/parlour.svg" "$icons/scalable/apps/parlour.svg"
cp "$assets/icons/parlour.png" "$icons/256x256/apps/parlour.png"

# Exec= gets the full path, quoted as the Desktop Entry spec asks, so a folder name
# with spaces works: inside quotes " ` $ take one backslash and a backslash takes
# another, then every backslash is doubled again for the file's string escaping. awk
# reads the path from the environment, where no character is special.
PARLOUR_EXE="$exe" awk '
    function quoted(s,    out, i, c) {
        out = ""
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (c == "\\") out = out "\\\\\\\\"
            else if (c == "\"" || c == "`" || c == "$") out = out "\\\\" c
            else out = out c
        }
        return "\"" out "\""
    }
    /^Exec=/    { print "Exec=" quoted(ENVIRON["PARLOUR_EXE"]); next }
    /^TryExec=/ { next }
    { print }
    /^Type=/    { print "TryExec=" ENVIRON["PARLOUR_EXE"] }
' "$assets/parlour.desktop" > "$apps/parlour.desktop.tmp"
mv "$apps/parlour.desktop.tmp" "$apps/parlour.desktop"

if [ ! -e "$bin/parlour" ] && [ ! -L "$bin/parlour" ] || our_link; then
    mkdir -p "$bin"
    ln -sfn "$exe" "$bin/parlour"
    linked="and $bin/parlour"
else
    linked="(left $bin/parlour alone: something else has that name)"
fi
refresh_menus
echo "Parlour is in your applications menu $linked."
