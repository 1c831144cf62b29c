const fs=require('fs'),YAML=require('yaml');
const ids=new Set(process.argv.slice(3));
for (const n of process.argv[2].split(',')){
 const d=YAML.parse(fs.readFileSync(`test/fixtures/blind${n}/exfiltration.yaml`,'utf8'),{maxAliasCount:-1});
 for(const c of d.cases){ if(ids.size && !ids.has(c.id)) continue;
  const o={id:c.id,label:c.label,why:c.why};
  if(c.server&&c.server.tools) o.tools=c.server.tools.map(t=>t.name+': '+(t.description||'').slice(0,100));
  for (const k of ['call','result','send','reply','message','a2a','card','stream']) if(c[k]!==undefined) o[k]=c[k];
  for (const k of Object.keys(c)) if(!['id','label','why','server','call','result','protocol','expect','target','harm'].includes(k)&&o[k]===undefined) o[k]=c[k];
  console.log(JSON.stringify(o));
 }}
