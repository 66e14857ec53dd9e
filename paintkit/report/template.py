# ruff: noqa: E501  (inline JavaScript/CSS: kept as written, not wrapped for Python)
"""The page's CSS and script (inline: the report must work offline, from a single file)."""

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px;color:#222}
h1{margin:16px 0 4px}h2{border-bottom:1px solid #ccc;margin-top:32px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
thead th{background:#f4f4f4;position:sticky;top:0}
tr.cat td:first-child,tr.task td:first-child{cursor:pointer}
tr.cat{background:#eef3fb;font-weight:600}tr.task td:first-child{padding-left:18px}
tr.mode td:first-child{padding-left:36px;color:#555}
.ci{color:#777;font-size:11px}.controls{position:sticky;top:0;background:#fff;padding:6px 0;z-index:2}
.controls label{margin-right:14px}.plots{display:flex;flex-wrap:wrap;gap:8px}
.plots svg{max-width:100%;height:auto}.card{border:1px solid #ddd;border-radius:6px;padding:6px;margin:6px 0}
.imgs{display:flex;flex-wrap:wrap;gap:4px}figure{margin:0;text-align:center;font-size:11px}
figure img{display:block;image-rendering:pixelated;border:1px solid #eee}
.noimg{width:96px;height:96px;display:flex;align-items:center;justify-content:center;background:#f6f6f6;color:#999}
.tag{background:#fde9d9;border-radius:3px;padding:0 4px}.instr{font-style:italic;margin:3px 0}
.scores{color:#444;font-size:12px}details>summary{cursor:pointer;font-weight:600;margin:4px 0}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;color:#fff}
"""

SCRIPT = r"""
(function(){
const D = JSON.parse(document.getElementById('report-data').textContent);
const tolSel = document.getElementById('tolerance'), metSel = document.getElementById('metric');
function fmt(x){return x===null||x===undefined?'':(100*x).toFixed(1);}
function cellHTML(c){
  if(!c) return '<td>–</td>';
  const m = metSel.value, blk = tolSel.value==='mean'?'cie76_mean':'cie76_'+tolSel.value;
  if(m==='outputs') return '<td>'+c.out+'/'+c.n+'</td>';
  if(m==='correct_size') return '<td>'+c.size+'/'+c.n+'</td>';
  const v = c[blk][m];
  const ci = v[1]===null?'':' <span class="ci">['+fmt(v[1])+', '+fmt(v[2])+']</span>';
  return '<td class="val">'+fmt(v[0])+ci+'</td>';
}
function head(label){return '<thead><tr><th>'+label+'</th>'+D.models.map(m=>'<th>'+esc(m)+'</th>').join('')+'</tr></thead>';}
function esc(s){return String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));}
function row(cls,label,cells,attrs){return '<tr class="'+cls+'" '+(attrs||'')+'><td>'+label+'</td>'+D.models.map(m=>cellHTML(cells[m])).join('')+'</tr>';}
function render(){
  for(const [bench,tree] of Object.entries(D.benchmarks)){
    const h = document.getElementById('hier-'+bench);
    let s = head('category / task / mode')+'<tbody>'+row('cat bench','<b>'+esc(bench)+' (benchmark)</b>',tree.benchmark);
    tree.categories.forEach((cat,ci)=>{
      if(cat.unscored) s += '<tr class="cat" data-cat="'+ci+'"><td colspan="'+(D.models.length+1)+'">▸ '+esc(cat.name)+'</td></tr>';
      else s += row('cat','▸ '+esc(cat.name),cat.cells,'data-cat="'+ci+'"');
      cat.tasks.forEach((t,ti)=>{
        s += row('task','▸ '+esc(t.name),t.cells,'data-parent="'+ci+'" data-task="'+ci+'-'+ti+'" hidden');
        t.modes.forEach(md=>{s += row('mode',esc(md.name),md.cells,'data-parent-task="'+ci+'-'+ti+'" hidden');});
      });
    });
    h.innerHTML = s+'</tbody>';
    const c = document.getElementById('cond-'+bench);
    if(c){c.innerHTML = head('visual condition')+'<tbody>'+tree.conditions.map(x=>row('cond',esc(x.name),x.cells)).join('')+'</tbody>';}
  }
  restoreOpen();
}
const open = new Set();
function restoreOpen(){
  document.querySelectorAll('tr.cat[data-cat]').forEach(tr=>{
    const tb = tr.closest('table').id, key = tb+'|'+tr.dataset.cat;
    if(open.has(key)) toggleCat(tr,true);
  });
  document.querySelectorAll('tr.task[data-task]').forEach(tr=>{
    const key = tr.closest('table').id+'|t'+tr.dataset.task;
    if(open.has(key)) toggleTask(tr,true);
  });
}
function toggleCat(tr,show){
  const t = tr.closest('table');
  t.querySelectorAll('tr[data-parent="'+tr.dataset.cat+'"]').forEach(r=>{r.hidden=!show; if(!show) toggleTask(r,false);});
}
function toggleTask(tr,show){
  tr.closest('table').querySelectorAll('tr[data-parent-task="'+tr.dataset.task+'"]').forEach(r=>{r.hidden=!show;});
}
document.addEventListener('click',ev=>{
  const tr = ev.target.closest('tr'); if(!tr) return;
  const tb = tr.closest('table'); if(!tb) return;
  if(tr.dataset.cat!==undefined){const k=tb.id+'|'+tr.dataset.cat, show=!open.has(k); show?open.add(k):open.delete(k); toggleCat(tr,show);}
  else if(tr.dataset.task!==undefined){const k=tb.id+'|t'+tr.dataset.task, show=!open.has(k); show?open.add(k):open.delete(k); toggleTask(tr,show);}
});
tolSel.addEventListener('change',render); metSel.addEventListener('change',render);
render();
})();
"""
