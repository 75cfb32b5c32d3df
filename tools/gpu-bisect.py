#!/usr/bin/env python3
"""tools/gpu-bisect.py: cubins for finding which instruction of our compiler's code a GPU rejects.

  tools/gpu-bisect.py prepare ARCH OUTDIR
      (here, with bin/rndn-asm) compiles every corpus module build/corpus/ARCH/*.ptx with our
      compiler into OUTDIR/<module>.cubin and writes OUTDIR/list: one line per kernel,
      "<module>.cubin <kernel> <args>", args as CudaDriver.DISABLED_KernelFromCubinFiles takes
      them (p: a 1 MiB buffer, for 64-bit parameters; 64: an s32, for 32-bit ones).
  tools/gpu-bisect.py variants CUBIN KERNEL OUTDIR
      (on the GPU machine, Python alone) writes OUTDIR/nNNN.cubin: CUBIN with instruction NNN of
      KERNEL replaced by a NOP (control bits kept), and OUTDIR/nobra.cubin with every BRA of it
      replaced.  A variant that no longer stops with CUDA_ERROR_ILLEGAL_INSTRUCTION names the
      culprit; a wrong address instead is expected (the NOP leaves a register unwritten).

  tools/gpu-bisect.py fill INDEX FILE
      writes the 1 MiB that CudaDriver.DISABLED_KernelFromCubinFiles puts in its INDEX-th buffer
      under RNDN_KERNEL_FILL=random (to run the emulator on a GPU run's input).
  tools/gpu-bisect.py compare DUMPDIR CUBINDIR LIST
      runs each kernel of LIST ("<module>.cubin <kernel> <args>") in the emulator (bin/rndn-emu,
      2 blocks of 64 threads) on that input and compares its buffers with a GPU run's dump
      (DUMPDIR/<module>.cubin.<kernel>.<n>.bin, RNDN_KERNEL_DUMP): the first differing words.

tools/gpu-check.sh runs the sweep over OUTDIR/list (one process per kernel: a fault poisons the
context) and the variants of the first kernels that stop with an illegal instruction."""
import glob, os, re, struct, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def text_section(data, kernel):
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdr = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdr[shstrndx][4]
    for h in hdr:
        name = data[stroff + h[0]:data.index(b'\0', stroff + h[0])].decode()
        if name == '.text.' + kernel:
            return h[4], h[5]
    sys.exit(f'{kernel}: no .text section')


def prepare(arch, out):
    os.makedirs(out, exist_ok=True)
    lines = []
    for ptx in sorted(glob.glob(os.path.join(ROOT, 'build/corpus', arch, '*.ptx'))):
        module = os.path.basename(ptx)[:-4]
        cubin = os.path.join(out, module + '.cubin')
        r = subprocess.run([os.path.join(ROOT, 'bin/rndn-asm'), ptx, '--arch', arch, '-o', cubin], capture_output=True, text=True)
        if r.returncode != 0:
            print(f'{module}: not compiled ({r.stderr.strip()[:120]})')
            continue
        text = open(ptx).read()
        for m in re.finditer(r'^\.visible \.entry (\w+)\((.*?)\)', text, re.M | re.S):
            types = re.findall(r'\.param \.(\w+)', m.group(2))
            args = ','.join('p' if t[1:] == '64' else '64' for t in types)
            lines.append(f'{module}.cubin {m.group(1)} {args or "-"}')
    open(os.path.join(out, 'list'), 'w').write('\n'.join(lines) + '\n')
    print(f'{out}: {len(lines)} kernels')


def variants(cubin, kernel, out):
    os.makedirs(out, exist_ok=True)
    data = open(cubin, 'rb').read()
    off, size = text_section(data, kernel)
    nobra = bytearray(data)
    for i in range(size // 16):
        at = off + 16 * i
        lo, hi = struct.unpack_from('<QQ', data, at)
        opcode = lo & 0xfff
        if opcode == 0x918 or (opcode == 0x947 and lo >> 32 == 0xfffffffc):
            continue  # NOPs and the closing self-branch
        keep = hi & ~((1 << 41) - 1)  # the control bits (105..127) stay
        v = bytearray(data)
        struct.pack_into('<QQ', v, at, 0x7918, keep)
        open(os.path.join(out, f'n{i:03d}.cubin'), 'wb').write(v)
        if opcode == 0x947:
            struct.pack_into('<QQ', nobra, at, 0x7918, keep)
    open(os.path.join(out, 'nobra.cubin'), 'wb').write(nobra)


def fill(index, path):
    mask = (1 << 64) - 1
    x = (0x9e3779b97f4a7c15 * (index + 1)) & mask
    words = []
    for _ in range(1 << 18):
        x = (x + 0x9e3779b97f4a7c15) & mask
        z = x
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & mask
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & mask
        z ^= z >> 31
        words.append((z & 0x807fffff) | ((119 + (z >> 32) % 16) << 23))
    open(path, 'wb').write(struct.pack('<%dI' % len(words), *words))


def compare(dumpdir, cubindir, listfile):
    import tempfile
    tmp = tempfile.mkdtemp()
    for line in open(listfile):
        if not line.strip():
            continue
        cubin, kernel, args = line.split()
        argv, outs = [], []
        for i, a in enumerate(args.split(',')):
            if a == 'p':
                b = len(outs)
                src = os.path.join(tmp, f'in{b}.bin')
                if not os.path.exists(src):
                    fill(b, src)
                out = os.path.join(tmp, f'out{b}.bin')
                argv.append(f'inout:{src}:{out}')
                outs.append(out)
            else:
                argv.append(f's32:{a}')
        r = subprocess.run([os.path.join(ROOT, 'bin/rndn-emu'), os.path.join(cubindir, cubin), '--kernel', kernel, '--grid', '2', '--block', '64'] + argv,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f'{cubin} {kernel}: emulator: {r.stderr.strip()[-200:]}')
            continue
        report = []
        for b, out in enumerate(outs):
            gpu = os.path.join(dumpdir, f'{cubin}.{kernel}.{b}.bin')
            if not os.path.exists(gpu):
                report.append(f'buffer {b}: no dump')
                continue
            g = open(gpu, 'rb').read()
            e = open(out, 'rb').read()[:len(g)]
            gw, ew = struct.unpack('<%dI' % (len(g) // 4), g), struct.unpack('<%dI' % (len(e) // 4), e)
            diff = [i for i in range(len(gw)) if gw[i] != ew[i]]
            if diff:
                shown = ', '.join(f'[{i}] gpu {gw[i]:08x} emu {ew[i]:08x}' for i in diff[:4])
                report.append(f'buffer {b}: {len(diff)} words differ: {shown}')
        print(f'{cubin} {kernel}: ' + ('; '.join(report) if report else 'equal'))


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'prepare':
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'variants':
        variants(*sys.argv[2:5])
    elif len(sys.argv) == 4 and sys.argv[1] == 'fill':
        fill(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'compare':
        compare(*sys.argv[2:5])
    else:
        sys.exit(__doc__)
