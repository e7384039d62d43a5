const fs=require("fs");const dir=process.argv[2];const f=fs.readdirSync(dir)[0];const p=JSON.parse(fs.readFileSync(dir+"/"+f));
const self={};const dt=p.timeDeltas;const cnt={};p.samples.forEach((s,i)=>{cnt[s]=(cnt[s]||0)+(dt[i]||0)});
for(const n of p.nodes){const k=n.callFrame.functionName+" "+n.callFrame.url.split("/").slice(-2).join("/")+":"+n.callFrame.lineNumber;self[k]=(self[k]||0)+(cnt[n.id]||0)}
const tot=Object.values(self).reduce((a,b)=>a+b,0);
Object.entries(self).sort((a,b)=>b[1]-a[1]).slice(0,Number(process.argv[3]||25)).forEach(([k,v])=>console.log((100*v/tot).toFixed(1),(v/1000).toFixed(0)+"ms",k))
