# Sourced by bench/device_wheels.sh and bench/device_ray_wheels.sh: what both need to fill a
# folder a GPU machine's call carries.

# download DEST SPEC...: CPython 3.12 wheels for x86-64 Linux (the device machines' Python),
# without their dependencies (each script names what the machines lack)
download() {
    local dest=$1
    shift
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$dest" "$@"
}

# copy_gl DEST: the GL / X libraries Skia links against (~3 MB), which the device machines
# lack; bench/device_check.sh puts DEST on LD_LIBRARY_PATH where skia does not import without
copy_gl() {
    local dest=$1 skia_so
    mkdir -p "$dest"
    skia_so=$(python -c "import skia; print(skia.__file__)")
    ldd "$skia_so" | awk '$3 ~ /^\/(usr\/)?lib/ {print $3}' \
        | grep -E 'lib(EGL|GL|GLdispatch|GLX|X11|xcb|Xau|Xdmcp|bsd|md|expat)\.so' \
        | xargs -r -I{} cp -L {} "$dest"/
}
