/*
 * (Tenth round, "fp10") Ordinary developer commands that share a dangerous command's verb, told apart by what the
 * command works on, not by its wording. Each guard is narrow: it only lets through the benign form of a structure the
 * commands detector (commands.ts) would otherwise refuse, and the attacks of that structure keep every trait it tests.
 *
 *   flashesImage   `dd if=<disk image file> of=<device>`: an OS image written to a removable disk (an SD card, a USB
 *                  stick), as every Raspberry Pi, Ubuntu or Armbian guide says. A wipe reads `/dev/zero`,
 *                  `/dev/urandom` or another device, or reads standard input (a download piped into dd); the
 *                  system's own first disk (sda, nvme0n1, disk0/disk1, mmcblk0, vda, xvda) is never a flash target.
 *   stickFormat    `mkfs.vfat -F 32 -n BACKUP /dev/sdb1`, `mkfs.exfat /dev/mmcblk1p1`: a USB stick or an SD card given
 *                  the file system such media carry (FAT, exFAT), on a device of the kinds sticks and cards appear as
 *                  (`sd[b-z]`, `mmcblk[1-9]`, a Mac's `disk[2-9]`), never the first disk, an NVMe or a virtual disk.
 *                  Other file systems and swap on a second disk stay refused (a data disk wiped).
 *   buildProduct   `xattr -dr com.apple.quarantine build/Release/App.app && open …`: quarantine cleared from an app
 *                  the project built itself (a relative path under a build folder, or Xcode's DerivedData). What an
 *                  attack clears comes from a download: ~/Downloads, /tmp, or a file the same line fetched.
 */

/** Files that hold a whole disk's image: what is written to a card or a stick. */
const IMAGE_FILE = /\.(?:img|iso|raw|wic|dmg|hddimg|sdcard)$/i;
/** A system's own first disk (and its partitions): never where an image is flashed. */
const FIRST_DISK = /^\/dev\/(?:sda|hda|vda|xvda|nvme0n\d{1,2}|r?disk[01]|mmcblk0)(?:p?\d{1,3}|s\d{1,3}){0,2}$/;

/** `dd` writing a disk image file onto a device that is not the system's first disk (see above). */
export function flashesImage(args: readonly string[]): boolean {
  const input = args.find((t) => t.startsWith("if="))?.slice(3) ?? "";
  const output = args.find((t) => t.startsWith("of="))?.slice(3) ?? "";
  if (input === "" || output === "" || args.filter((t) => t.startsWith("if=") || t.startsWith("of=")).length !== 2) return false;
  if (input.startsWith("/dev/") || input.startsWith("/proc/") || input.includes("$(") || input.includes("`")) return false;
  return IMAGE_FILE.test(input) && !FIRST_DISK.test(output);
}

/** Programs that print a (compressed) file's content to standard output. */
const DECOMPRESS = /^(?:xzcat|zcat|gzcat|bzcat|zstdcat|lz4cat|cat|pv)$|^(?:xz|unxz|gzip|gunzip|bzip2|bunzip2|zstd|unzstd|lz4)$/;

/**
 * (Seventeenth round, "cp17") `xzcat os.img.xz | sudo dd of=/dev/sdc bs=4M`: the same flash with the image
 * decompressed on the way (every vendor ships its images compressed). The stage before dd prints one image file (its
 * name with a compression suffix or none), dd reads its standard input (no `if=`), and the output is not the first disk.
 * A download piped into dd, `/dev/zero` or a device printed by cat keep failing it.
 */
export function flashesPipedImage(producer: { name: string; args: readonly string[] }, args: readonly string[]): boolean {
  if (!DECOMPRESS.test(producer.name) || args.some((t) => t.startsWith("if="))) return false;
  const outputs = args.filter((t) => t.startsWith("of="));
  if (outputs.length !== 1 || FIRST_DISK.test((outputs[0] as string).slice(3))) return false;
  const files = producer.args.filter((t) => !t.startsWith("-"));
  if (files.length !== 1) return false;
  const f = files[0] as string;
  if (f.startsWith("/dev/") || f.startsWith("/proc/") || f.includes("$") || f.includes("`")) return false;
  return IMAGE_FILE.test(f.replace(/\.(?:xz|gz|bz2|zst|lz4|zip)$/i, ""));
}

/** Removable media's file systems, and the devices sticks and cards appear as (whole, or a partition). */
const STICK_FS = /^mkfs\.(?:vfat|fat|msdos|exfat)$|^mkdosfs$|^mkexfatfs$/;
const STICK_DEVICE = /^\/dev\/(?:sd[b-z]\d{0,2}|mmcblk[1-9](?:p\d{1,2})?|r?disk[2-9]\d?(?:s\d{1,2})?)$/;

/** A FAT or exFAT file system made on a stick or a card (see above): every device operand is one. */
export function stickFormat(name: string, args: readonly string[]): boolean {
  if (!STICK_FS.test(name)) return false;
  const devices = args.filter((t) => t.startsWith("/dev/"));
  return devices.length === 1 && devices.every((t) => STICK_DEVICE.test(t)) && !args.some((t) => t.includes("$"));
}

/** Folders a build writes its products to. */
const BUILD_DIR = /^(?:build|builds|dist|out|target|release|debug|products|\.build|xcbuild|derived[-_]?data|archives?)$/i;

/**
 * Whether a path cleared of its quarantine is a product of the project's own build: a relative path (no `..`, no home,
 * no variable) with a build folder among its folders and no Downloads or temporary folder, or a path under Xcode's
 * DerivedData. `fetched` holds the base names of the files the same line downloaded; one of them is never a build.
 */
export function buildProduct(path: string, fetched: ReadonlySet<string>): boolean {
  const p = path.replace(/[/\\]+$/, "");
  if (p === "" || fetched.has(p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1))) return false;
  if (/^(?:~|\$\{?HOME\}?)?\/(?:Users\/[^/]{1,64}\/|home\/[^/]{1,64}\/)?Library\/Developer\/Xcode\/DerivedData\/[^/]/.test(p)) return !p.split("/").includes("..");
  if (/^(?:[/\\~$]|[A-Za-z]:)/.test(p)) return false;
  const parts = p.split(/[/\\]/);
  if (parts.some((s) => s === ".." || /^(?:downloads|tmp|temp|desktop)$/i.test(s))) return false;
  return parts.slice(0, -1).some((s) => BUILD_DIR.test(s));
}

/**
 * (Twelfth round, "cps12") The documented one-line installers of common toolchains, piped into `sh` or `bash` as their
 * own pages say (`curl -LsSf https://astral.sh/uv/install.sh | sh`, `curl … https://sh.rustup.rs | sh`, NodeSource's
 * `setup_20.x | sudo -E bash -`, Homebrew's and nvm's scripts on GitHub under their own organisation). Told apart by
 * the exact vendor address: https only, the vendor's own host (no user part, no other port), the installer's own
 * path, one URL in the download. A look-alike host (`astral.sh.example`), plain HTTP, another GitHub owner or a
 * second URL keep the download → execute finding.
 */
const VENDOR_INSTALLERS: readonly [string, RegExp][] = [
  ["astral.sh", /^\/(?:uv|ruff)\/(?:\d{1,3}\.\d{1,3}\.\d{1,3}\/)?install\.sh$/],
  ["sh.rustup.rs", /^\/?$/],
  ["bun.sh", /^\/install$/],
  ["deno.land", /^\/(?:install\.sh|x\/install\/install\.sh)$/],
  ["get.docker.com", /^\/?$/],
  ["deb.nodesource.com", /^\/setup_(?:\d{1,2}\.x|lts\.x|current\.x)$/],
  ["rpm.nodesource.com", /^\/setup_(?:\d{1,2}\.x|lts\.x|current\.x)$/],
  ["install.python-poetry.org", /^\/?$/],
  ["get.pnpm.io", /^\/install\.sh$/],
  ["ollama.com", /^\/install\.sh$/],
  ["tailscale.com", /^\/install\.sh$/],
  ["get.k3s.io", /^\/?$/],
  ["starship.rs", /^\/install\.sh$/],
  ["get.sdkman.io", /^\/?$/],
  ["get.volta.sh", /^\/?$/],
  ["fnm.vercel.app", /^\/install$/],
  // (Thirteenth round, "cps13") More documented installers, each its vendor's own address and path: Helm, pyenv,
  // golangci-lint, act, k3d, kustomize on GitHub under their own organisation; Slack's CLI, Google Cloud's SDK,
  // Azure's CLI (Microsoft's aka.ms link), Nix, mise, Fly, Pulumi, Doppler, .NET, RVM, acme.sh, Meteor, RKE2, pip's
  // bootstrap, and packagecloud's and GitLab's repository set-up scripts.
  ["downloads.slack-edge.com", /^\/slack-cli\/install\.sh$/],
  ["pyenv.run", /^\/?$/],
  ["sdk.cloud.google.com", /^\/?$/],
  ["aka.ms", /^\/InstallAzureCLI(?:Deb)?$/],
  ["install.determinate.systems", /^\/nix$/],
  ["nixos.org", /^\/nix\/install$/],
  ["mise.run", /^\/?$/],
  ["fly.io", /^\/install\.sh$/],
  ["get.pulumi.com", /^\/?$/],
  ["cli.doppler.com", /^\/install\.sh$/],
  ["dot.net", /^\/v1\/dotnet-install\.sh$/],
  ["get.rvm.io", /^\/?$/],
  ["get.acme.sh", /^\/?$/],
  ["install.meteor.com", /^\/?$/],
  ["get.rke2.io", /^\/?$/],
  ["bootstrap.pypa.io", /^\/get-pip\.py$/],
  ["packagecloud.io", /^\/install\/repositories\/[\w.-]{1,64}\/[\w.-]{1,64}\/script\.(?:deb|rpm)\.sh$/],
  ["packages.gitlab.com", /^\/install\/repositories\/(?:runner\/gitlab-runner|gitlab\/gitlab-(?:ce|ee))\/script\.(?:deb|rpm)\.sh$/],
  ["raw.githubusercontent.com", /^\/(?:helm\/helm\/(?:main|master)\/scripts\/get-helm-3|pyenv\/pyenv-installer\/master\/bin\/pyenv-installer|golangci\/golangci-lint\/(?:master|HEAD)\/install\.sh|nektos\/act\/master\/install\.sh|k3d-io\/k3d\/main\/install\.sh|kubernetes-sigs\/kustomize\/master\/hack\/install_kustomize\.sh)$/],
  // (Fourteenth round) Node-RED's documented installer for Debian and Raspberry Pi OS, from its own releases.
  ["github.com", /^\/node-red\/linux-installers\/releases\/(?:latest\/download|download\/v?[\d.]{1,20})\/update-nodejs-and-nodered(?:-deb)?$/],
  ["raw.githubusercontent.com", /^\/node-red\/linux-installers\/master\/deb\/update-nodejs-and-nodered$/],
  ["raw.githubusercontent.com", /^\/(?:Homebrew\/install\/(?:HEAD|master)\/install\.sh|nvm-sh\/nvm\/v\d{1,3}\.\d{1,3}\.\d{1,3}\/install\.sh|ohmyzsh\/ohmyzsh\/master\/tools\/install\.sh)$/],
];

/** Whether a download stage's words fetch exactly one URL that is a vendor's documented installer (see above). */
export function vendorInstaller(words: readonly string[], runner: string): boolean {
  if (runner !== "sh" && runner !== "bash" && runner !== "zsh" && runner !== "python" && runner !== "python3") return false;
  const urls = words.filter((t) => /^[a-z][a-z0-9+.-]{0,16}:\/\//i.test(t) || /^[\w.-]{1,253}\.[a-z]{2,12}(?:\/|$)/i.test(t));
  if (urls.length !== 1) return false;
  let u: URL;
  try {
    u = new URL(urls[0] as string);
  } catch {
    return false;
  }
  if (u.protocol !== "https:" || u.username !== "" || u.password !== "" || u.port !== "" || u.search !== "" || u.hash !== "") return false;
  const python = runner === "python" || runner === "python3";
  return VENDOR_INSTALLERS.some(([host, path]) => u.hostname === host && path.test(u.pathname) && (!python || host === "install.python-poetry.org" || host === "bootstrap.pypa.io"));
}
