"""SCons tool "shadertrans": shader assembly to Gen9 kernels in one Builder.

`scons install` puts this file in PREFIX/share/shadertrans/site_scons/site_tools/
as shadertrans.py.  A toolchain loads it from there (or copies it into its
own site_scons/site_tools/):

    env = Environment(tools=['default', 'shadertrans'],
                      toolpath=['/usr/local/share/shadertrans/site_scons/site_tools'])
    env.Append(SHADERTRANSPATH=['shaders/include'])
    env.ShaderKernel('water.ps.asm')           # -> water.ps.gen, the Gen9 kernel
    env.ShaderKernel('sky.vp')                 # -> sky.gen
    env.ShaderKernel('lit.vs.asm', SHADERTRANSFLAGS=['--emit=vasm'],
                     SHADERTRANSSUFFIX='.vasm')

Sources: Direct3D 9 assembly (.asm .vsh .psh .vs .ps) and ARB programs (.vp
.fp).  `#include "file"` lines of Direct3D 9 sources are expanded by
shadertrans (searched beside the including file, then in SHADERTRANSPATH)
and scanned here, includes of includes too, so editing an included file
rebuilds the kernels that use it.  ARB programs use '#' for comments and are
not scanned.  A shader with errors fails the build with shadertrans's
diagnostics and leaves no target behind.

Construction variables:
    SHADERTRANS        the command (default: the shadertrans installed beside
                       this tool, else the one on PATH)
    SHADERTRANSFLAGS   options (shadertrans --help): --emit=..., --simd=...
    SHADERTRANSPATH    directories searched for #include files (-I)
    SHADERTRANSSUFFIX  the target suffix (default .gen)
"""
import os
import re

import SCons.Action
import SCons.Builder
import SCons.Node.FS
import SCons.Scanner
import SCons.Util

SOURCE_SUFFIXES = ['.asm', '.vsh', '.psh', '.vs', '.ps', '.vp', '.fp']
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]', re.M)


def _installed_command():
    """PREFIX/bin/shadertrans, for this file at
    PREFIX/share/shadertrans/site_scons/site_tools/shadertrans.py."""
    here = os.path.dirname(os.path.abspath(__file__))
    prefix = os.path.normpath(os.path.join(here, '..', '..', '..', '..'))
    cmd = os.path.join(prefix, 'bin', 'shadertrans')
    return cmd if os.path.isfile(cmd) and os.access(cmd, os.X_OK) else None


def _is_arb(text):
    """The library's rule: "!!ARB" after white space and '#' lines."""
    for line in text.splitlines():
        s = line.strip().lstrip('\ufeff')
        if not s or s.startswith('#'):
            continue
        return s.startswith('!!ARB')
    return False


def _scan(node, env, path):
    """The files a source's #include lines name, found as shadertrans finds
    them: beside the including file, then in SHADERTRANSPATH."""
    if not node.exists():
        return []
    text = node.get_text_contents()
    if _is_arb(text):
        return []
    found = []
    for name in _INCLUDE.findall(text):
        dirs = (node.get_dir(),) + tuple(path)
        f = SCons.Node.FS.find_file(name, dirs)
        if f is not None:
            found.append(f)
    return found


def generate(env):
    env.SetDefault(
        SHADERTRANS=_installed_command() or 'shadertrans',
        SHADERTRANSFLAGS=SCons.Util.CLVar(''),
        SHADERTRANSPATH=[],
        SHADERTRANSSUFFIX='.gen',
        _SHADERTRANSINCFLAGS='${_concat("-I", SHADERTRANSPATH, "", __env__, RDirs, TARGET, SOURCE)}',
        SHADERTRANSCOM='$SHADERTRANS $SHADERTRANSFLAGS $_SHADERTRANSINCFLAGS -o $TARGET $SOURCE',
        SHADERTRANSCOMSTR='',
    )
    scanner = SCons.Scanner.Scanner(
        function=_scan, name='ShaderIncludeScanner', skeys=SOURCE_SUFFIXES + ['.inc'],
        path_function=SCons.Scanner.FindPathDirs('SHADERTRANSPATH'), recursive=True)
    action = SCons.Action.Action('$SHADERTRANSCOM', '$SHADERTRANSCOMSTR')
    env['BUILDERS']['ShaderKernel'] = SCons.Builder.Builder(
        action=action, suffix='$SHADERTRANSSUFFIX', src_suffix=SOURCE_SUFFIXES,
        source_scanner=scanner, single_source=True)


def exists(env):
    return _installed_command() or env.Detect('shadertrans')
