// The console's static files go beside its compiled scripts (npm run build).
import { copyFileSync, mkdirSync } from "node:fs";
const here = new URL("./", import.meta.url);
const out = new URL("../dist/console/", import.meta.url);
mkdirSync(out, { recursive: true });
for (const f of ["index.html", "style.css"]) copyFileSync(new URL(f, here), new URL(f, out));
