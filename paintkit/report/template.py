# ruff: noqa: E501  (inline JavaScript/CSS: kept as written, not wrapped for Python)
"""The page's CSS and script (inline: the report must work offline, from a single file)."""

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px;color:#222}
h1{margin:16px 0 4px}h2{border-bottom:1px solid #ccc;margin-top:32px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
thead th{background:#f4f4f4;position:sticky;top:calc(var(--bar,0px) - 1px);z-index:1}
th.sortable{cursor:pointer}th.sorted-desc::after{content:' ▼'}th.sorted-asc::after{content:' ▲'}
td.warn,.warn{color:#a15c00}h4{margin:14px 0 2px}.warn{background:#fff4e0;padding:4px 8px}.ok{color:#2a6b2a}
#provenance table th{text-align:left;background:none;position:static}#provenance td{text-align:left;white-space:normal}
tr.cat td:first-child,tr.task td:first-child{cursor:pointer}
tr.cat{background:#eef3fb;font-weight:600}tr.task td:first-child{padding-left:18px}
tr.mode td:first-child{padding-left:36px;color:#555}
.ci{color:#777;font-size:11px}.controls{position:sticky;top:0;background:#fff;padding:6px 0;z-index:2;box-shadow:0 0 0 10000px #fff;clip-path:inset(0 -10000px)}
.controls label{margin-right:14px}.plots{display:flex;flex-wrap:wrap;gap:8px}
.plots svg{max-width:100%;height:auto}.plots figure{flex:0 0 auto;max-width:100%}
table.board td:nth-child(2),table.paired td:nth-child(-n+2){white-space:normal;overflow-wrap:anywhere;min-width:6em;max-width:24em}
table.board td:nth-child(2),table.board th:nth-child(2),table.paired td:nth-child(2),table.paired th:nth-child(2),td.verdict{text-align:left}.card{border:1px solid #ddd;border-radius:6px;padding:6px;margin:6px 0}
.imgs{display:flex;flex-wrap:wrap;gap:4px}figure{margin:0;text-align:center;font-size:11px}
figure img{display:block;image-rendering:pixelated;border:1px solid #bbb;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/8px 8px}img.zoom{cursor:zoom-in}
#overlay{position:fixed;inset:0;background:rgba(0,0,0,.8);z-index:10;display:flex;align-items:center;justify-content:center;cursor:zoom-out}#overlay[hidden]{display:none}
#overlay img{width:min(80vw,80vh);height:auto;border:1px solid #fff}#overlay figcaption{color:#fff;font-size:14px}
.gallery-tools{margin:6px 0}.boxed{position:relative;line-height:0}.boxed svg.boxes{position:absolute;inset:1px;width:calc(100% - 2px);height:calc(100% - 2px);pointer-events:none;overflow:visible}.plot{margin:0}.plot figcaption{font-size:11px}
.noimg{width:96px;height:96px;display:flex;align-items:center;justify-content:center;background:#f6f6f6;color:#999}
.tag{background:#fde9d9;border-radius:3px;padding:0 4px}.instr{font-style:italic;margin:3px 0}
.scores{color:#444;font-size:12px}details>summary{cursor:pointer;font-weight:600;margin:4px 0}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;color:#fff}
"""

SCRIPT = r"""
(function(){
const D = JSON.parse(document.getElementById('report-data').textContent);
const tolSel = document.getElementById('tolerance'), metSel = document.getElementById('metric');
function num(x){return typeof x==='number'&&isFinite(x);}
function fmt(x){return num(x)?(100*x).toFixed(1):'–';}
function esc(s){return String(s).replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));}
function count(a,b){const n=x=>num(x)?x.toLocaleString('en-US'):'–'; return n(a)+'/'+n(b);}
function block(){return tolSel.value==='mean'?'cie76_mean':'cie76_'+tolSel.value;}
// the value a cell shows for the selected metric and tolerance: [sort key, html]
function cellValue(c){
  if(!c) return [null,'–'];
  const m = metSel.value;
  if(m==='outputs') return [num(c.n)&&c.n?c.out/c.n:null, count(c.out,c.n)];
  if(m==='correct_size') return [num(c.n)&&c.n?c.size/c.n:null, count(c.size,c.n)];
  const v = (c[block()]||{})[m]||[null,null,null];
  const ci = num(v[1])&&num(v[2])?' <span class="ci">['+fmt(v[1])+', '+fmt(v[2])+']</span>':'';
  return [num(v[0])?v[0]:null, fmt(v[0])+(num(v[0])?ci:'')];
}
function cellHTML(c){return '<td class="val">'+cellValue(c)[1]+'</td>';}
function head(label){return '<thead><tr><th>'+label+'</th>'+D.models.map(m=>'<th>'+esc(m)+'</th>').join('')+'</tr></thead>';}
function row(cls,label,cells,attrs){return '<tr class="'+cls+'" '+(attrs||'')+'><td>'+label+'</td>'+D.models.map(m=>cellHTML(cells[m])).join('')+'</tr>';}
const sortState = {};
function renderBoards(){
  for(const [bench,tree] of Object.entries(D.benchmarks)){
    const t = document.getElementById('board-'+bench); if(!t) continue;
    const cats = tree.categories.filter(c=>!c.unscored), cov = (D.coverage||{})[bench]||{};
    const cols = [{name:'model'},{name:'score'}].concat(cats.map(c=>({name:c.name,cat:c})),[{name:'problems'},{name:'outputs'}]);
    const rows = D.models.filter(m=>tree.benchmark[m]||cov[m]).map(m=>{
      const cv = cov[m]||{}, score = cellValue(tree.benchmark[m]);
      const miss = num(cv.outputs)&&num(cv.expected)&&cv.outputs<cv.expected;
      const short = num(cv.problems)&&num(cv.expected)&&cv.problems<cv.expected;
      return {model:m, cells:[
        [m.toLowerCase(), esc(m)], score].concat(cats.map(c=>cellValue(c.cells[m])),[
        [cv.problems, count(cv.problems,cv.expected)+(short?' ⚠':''), short],
        [num(cv.expected)&&cv.expected?cv.outputs/cv.expected:null, count(cv.outputs,cv.expected)+(miss?' ⚠ '+(cv.expected-cv.outputs)+' missing':''), miss]])};
    });
    const byScore = rows.slice().sort((a,b)=>cmp(b.cells[1][0],a.cells[1][0])||cmp(a.cells[0][0],b.cells[0][0]));
    byScore.forEach((r,k)=>{r.rank=k+1;});
    const st = sortState[bench]||{col:1,dir:-1};
    rows.sort((a,b)=>{const x=a.cells[st.col][0], y=b.cells[st.col][0];
      if(x===null&&y===null) return a.rank-b.rank; if(x===null) return 1; if(y===null) return -1;
      return st.dir*cmp(x,y)||a.rank-b.rank;});
    let s = '<thead><tr><th>#</th>'+cols.map((c,k)=>'<th class="sortable'+(st.col===k?(st.dir<0?' sorted-desc':' sorted-asc'):'')+'" data-col="'+k+'">'+esc(c.name)+'</th>').join('')+'</tr></thead><tbody>';
    rows.forEach(r=>{s += '<tr><td>'+r.rank+'.</td>'+r.cells.map((c,k)=>'<td'+(k===0?'':' class="val'+(c[2]?' warn':'')+'"')+'>'+c[1]+'</td>').join('')+'</tr>';});
    t.innerHTML = s+'</tbody>';
  }
}
function cmp(a,b){if(a===b) return 0; if(a===null||a===undefined) return 1; if(b===null||b===undefined) return -1; return a<b?-1:1;}
function render(){
  renderBoards();
  for(const [bench,tree] of Object.entries(D.benchmarks)){
    const h = document.getElementById('hier-'+bench); if(!h) continue;
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
  const th = ev.target.closest('th.sortable');
  if(th){
    const tb = th.closest('table'), bench = tb.id.slice(6), col = +th.dataset.col;
    const st = sortState[bench]||{col:1,dir:-1};
    sortState[bench] = st.col===col?{col:col,dir:-st.dir}:{col:col,dir:col===0?1:-1};
    renderBoards(); return;
  }
  const big = ev.target.closest('img.zoom');
  if(big){const o=document.getElementById('overlay'); o.querySelector('img').src=big.src; o.querySelector('figcaption').textContent=big.alt; o.hidden=false; return;}
  if(ev.target.closest('#overlay')){document.getElementById('overlay').hidden=true; return;}
  const tr = ev.target.closest('tr'); if(!tr) return;
  const tb = tr.closest('table'); if(!tb) return;
  if(tr.dataset.cat!==undefined){const k=tb.id+'|'+tr.dataset.cat, show=!open.has(k); show?open.add(k):open.delete(k); toggleCat(tr,show);}
  else if(tr.dataset.task!==undefined){const k=tb.id+'|t'+tr.dataset.task, show=!open.has(k); show?open.add(k):open.delete(k); toggleTask(tr,show);}
});
document.addEventListener('keydown',ev=>{if(ev.key==='Escape'){const o=document.getElementById('overlay'); if(o) o.hidden=true;}});
const modelSel = document.getElementById('gallery-model');
if(modelSel) modelSel.addEventListener('change',()=>{document.querySelectorAll('.card').forEach(c=>{c.hidden=modelSel.value!==''&&c.dataset.model!==modelSel.value;});});
const expand = document.getElementById('gallery-expand');
if(expand) expand.addEventListener('click',()=>{const ds=document.querySelectorAll('#gallery details'); const anyClosed=[...ds].some(d=>!d.open); ds.forEach(d=>{d.open=anyClosed;}); expand.textContent=anyClosed?'collapse all':'expand all';});
document.addEventListener('click',ev=>{
  const a = ev.target.closest('a.png'); if(!a) return; ev.preventDefault();
  const svg = a.closest('figure').querySelector('svg'), r = svg.getBoundingClientRect();
  const img = new Image(), c = document.createElement('canvas'), k = 2;
  c.width = Math.ceil(r.width*k); c.height = Math.ceil(r.height*k);
  img.onload = ()=>{const g=c.getContext('2d'); g.fillStyle='#fff'; g.fillRect(0,0,c.width,c.height); g.drawImage(img,0,0,c.width,c.height);
    const l=document.createElement('a'); l.download=a.dataset.name+'.png'; l.href=c.toDataURL('image/png'); l.click();};
  img.src = 'data:image/svg+xml;charset=utf-8,'+encodeURIComponent(new XMLSerializer().serializeToString(svg));
});
// A stuck header sits 1px up, under the toolbar: the top band of a sticky cell of a
// collapsed-border table is painted by no one (rows passing beneath showed through it);
// floor: never a sub-pixel gap. The toolbar's height is followed as it wraps, and its white
// reaches sideways past the content column (a table wider than the column scrolls under it).
function setBar(){const c=document.getElementById('controls'); if(c) document.documentElement.style.setProperty('--bar',Math.floor(c.getBoundingClientRect().height)+'px');}
window.addEventListener('resize',setBar); setBar();
if(window.ResizeObserver && document.getElementById('controls')) new ResizeObserver(setBar).observe(document.getElementById('controls'));
tolSel.addEventListener('change',render); metSel.addEventListener('change',render);
render();
})();
"""
