// The script of a file's page of the html command (contrib/html.c):
// colours by author, commit or age (switchable), the legend beside the
// code (filterable; its rows highlight their tokens), a tooltip with the
// commit on hover, and the minimap.  The gutter, the line anchors and
// the links are in the HTML: they need no script.  What it is given,
// html.c writes before it into the same <script>: C, the commits
// ({id, a: author, d: day, t: time, n: tokens, s: summary}); P, the
// palette; OTHERS, the colour of the rest; BY, the colouring to start
// with; URLT, the commit URL template or null.  contrib/embed.sh drops
// the comment lines and the last newline.
(function(){
function $(id){return document.getElementById(id);}
var dyn=$('dyn'),tip=$('tip'),code=$('code'),map=$('map'),filter=$('legend-filter'),by=BY,pinned=null,lit=null;
var lo=Infinity,hi=-Infinity,i;
for(i=0;i<C.length;i++){lo=Math.min(lo,C[i].t);hi=Math.max(hi,C[i].t);}
function ramp(t){var f=hi>lo?(t-lo)/(hi-lo):1;return 'hsl('+Math.round(240-240*f)+',70%,40%)';}
function keyOf(c){return by==='author'?c.a:by==='age'?new Date(c.t*1000).getUTCFullYear():c.id;}
// a Map: an author named "constructor" is no property of an object's prototype
function groups(){var m=new Map(),order=[],i,c,g;
 for(i=0;i<C.length;i++){c=C[i];g=m.get(keyOf(c));
  if(!g){g={key:keyOf(c),n:0,c:[],w:0,q:'',label:by==='author'?c.a:by==='age'?String(keyOf(c)):c.id.slice(0,10)+' '+c.s};
   m.set(g.key,g);order.push(g);}
  g.n+=c.n;g.w+=c.n*c.t;g.c.push(i);g.q+='\n'+c.a+'\n'+c.id+'\n'+c.s+'\n'+c.d;}
 order.sort(by==='age'?function(x,y){return y.key-x.key;}:function(x,y){return y.n-x.n;});return order;}
function colour(gs){var css='';gs.forEach(function(g,i){
  g.col=by==='age'?ramp(g.w/(g.n||1)):i<P.length?P[i]:OTHERS;
  g.c.forEach(function(k){C[k].col=by==='age'?ramp(C[k].t):g.col;css+='.c'+k+'{color:'+C[k].col+'}';});});
 dyn.textContent=css;}
function td(tr,cls,x){var d=document.createElement('td');if(cls)d.className=cls;
 if(typeof x==='object')d.appendChild(x);else d.textContent=x;tr.appendChild(d);}
function legend(gs){var tb=$('legend-rows'),total=0;tb.textContent='';
 $('legend-title').textContent={author:'Authors',commit:'Commits',age:'Years'}[by];
 gs.forEach(function(g){total+=g.n;});
 gs.forEach(function(g){var tr=document.createElement('tr'),sw=document.createElement('span'),label=g.label,a;
  sw.className='sw';sw.style.background=g.col;td(tr,'',sw);
  if(by==='commit'&&URLT){a=document.createElement('a');a.href=URLT.split('%H').join(encodeURIComponent(C[g.c[0]].id));
   a.textContent=label;label=a;}
  td(tr,'label',label);td(tr,'num',g.n);td(tr,'num',(100*g.n/(total||1)).toFixed(1)+'%');
  tr.dataset.c=g.c.join(' ');tr.dataset.q=(g.label+g.q).toLowerCase();
  tr.addEventListener('mouseenter',function(){if(!pinned)hl(tr);});
  tr.addEventListener('mouseleave',function(){if(!pinned)hl(null);});
  tr.addEventListener('click',function(e){if(e.target.closest('a'))return;pinned=pinned===tr?null:tr;hl(pinned||tr);});
  tb.appendChild(tr);});
 narrow();}
// the filter narrows the legend to the rows whose author, id, summary, date or label hold it
function narrow(){var q=filter.value.trim().toLowerCase(),r=$('legend-rows').rows,i;
 for(i=0;i<r.length;i++)r[i].hidden=q!==''&&r[i].dataset.q.indexOf(q)<0;}
filter.addEventListener('input',narrow);
function hl(tr){var on=code.querySelectorAll('.t.on'),r=$('legend-rows').rows,i;
 for(i=0;i<on.length;i++)on[i].classList.remove('on');
 for(i=0;i<r.length;i++)r[i].classList.toggle('on',r[i]===tr);
 lit=null;document.body.classList.toggle('hl',!!tr);
 if(tr){lit={};tr.dataset.c.split(' ').forEach(function(k){lit[k]=1;
  var s=code.querySelectorAll('.t.c'+k);for(var j=0;j<s.length;j++)s[j].classList.add('on');});}
 draw();}
function apply(){var gs=groups();colour(gs);legend(gs);pinned=null;hl(null);
 var b=document.querySelectorAll('#by button');for(var i=0;i<b.length;i++)b[i].disabled=b[i].value===by;}
$('by').addEventListener('click',function(e){if(e.target.value){by=e.target.value;apply();}});
function commitOf(el){var m=/\bc(\d+)\b/.exec(el.className);return m?C[+m[1]]:null;}
code.addEventListener('mouseover',function(e){var el=e.target.closest('.t,.gc'),c=el&&commitOf(el);
 if(!c){tip.hidden=true;return;}tip.textContent='';
 [c.s,c.a+'  '+c.d,c.id].forEach(function(l,i){var d=document.createElement('div');d.textContent=l;if(!i)d.style.fontWeight='bold';tip.appendChild(d);});
 tip.hidden=false;tip.style.left=Math.max(0,Math.min(e.clientX+12,innerWidth-490))+'px';tip.style.top=(e.clientY+16)+'px';});
code.addEventListener('mouseout',function(e){if(e.target.closest('.t,.gc'))tip.hidden=true;});
// selecting code must not follow the links its tokens are
code.addEventListener('click',function(e){if(e.target.closest('a.t')&&String(getSelection()))e.preventDefault();});
// the minimap: a row per line, from its indent to its end, in the colour of its gutter's commit
var lines=[],rows=code.rows,rh=1,busy=false;
for(i=0;i<rows.length;i++){var g=rows[i].querySelector('.gc'),m=g&&/\bc(\d+)\b/.exec(g.className),
  s=rows[i].cells[2].textContent.replace(/\t/g,'    '),e=s.replace(/\s+$/,'').length;
 lines.push({c:m?+m[1]:-1,i:s.length-s.replace(/^\s+/,'').length,e:e});}
function draw(){if(map.hidden)return;var w=map.clientWidth,h=map.clientHeight,r=window.devicePixelRatio||1,x,i,l,cw,y;
 map.width=Math.round(w*r);map.height=Math.round(h*r);x=map.getContext('2d');x.scale(r,r);
 rh=Math.min(4,h/Math.max(1,lines.length));cw=(w-4)/100;
 for(i=0;i<lines.length;i++){l=lines[i];if(l.c<0||l.e<=l.i)continue;
  x.globalAlpha=lit&&!lit[l.c]?.15:1;x.fillStyle=C[l.c].col||'#888';
  y=Math.round(i*rh);x.fillRect(2+Math.min(l.i,90)*cw,y,Math.max(2,(Math.min(l.e,100)-Math.min(l.i,90))*cw),
   Math.max(1,Math.round((i+1)*rh)-y-(rh>=3?1:0)));}
 if(rows.length){var top=rows[0].getBoundingClientRect().top,lh=rows[0].getBoundingClientRect().height||1,
  hh=document.querySelector('header').offsetHeight,a=Math.max(0,(hh-top)/lh),b=Math.min(lines.length,(innerHeight-top)/lh);
  x.globalAlpha=1;x.fillStyle='rgba(0,0,0,.13)';if(b>a)x.fillRect(0,a*rh,w,Math.max(2,(b-a)*rh));}}
function redraw(){if(!busy){busy=true;requestAnimationFrame(function(){busy=false;draw();});}}
map.hidden=false;addEventListener('scroll',redraw);addEventListener('resize',redraw);
map.addEventListener('click',function(e){var n=Math.floor((e.clientY-map.getBoundingClientRect().top)/rh)+1;
 if(n<1||n>lines.length)return;if(location.hash==='#L'+n)$('L'+n).scrollIntoView();else location.hash='#L'+n;});
apply();})();
