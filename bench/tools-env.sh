# tools-env.sh — sourced by the bench scripts that run the tools of a
# build: the C locale, and for an uninstalled build's real programs
# (BIN ending in .libs) the library's path.  Expects BIN set.
LC_ALL=C
export LC_ALL
case $BIN in
*/.libs) LD_LIBRARY_PATH="$BIN/../../lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
         export LD_LIBRARY_PATH ;;
esac
