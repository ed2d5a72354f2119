(function(){
  'use strict';
  var PAGE=%d;
  function pagers(root){
    root.querySelectorAll('.keys[data-keys]').forEach(function(box){
      var keys=null,page=0;
      function show(p){
        if(keys===null){keys=JSON.parse(box.dataset.keys);}
        page=Math.max(0,Math.min(Math.ceil(keys.length/PAGE)-1,p));
        var ul=box.querySelector('ul'),frag=document.createDocumentFragment();
        var end=Math.min(keys.length,(page+1)*PAGE);
        for(var i=page*PAGE;i<end;i++){var li=document.createElement('li');li.textContent=keys[i];frag.appendChild(li);}
        ul.textContent='';ul.appendChild(frag);
        box.querySelector('.pos').textContent=(page*PAGE+1)+'\u2013'+end+' of '+keys.length;
      }
      box.querySelector('.prev').addEventListener('click',function(){show(page-1);});
      box.querySelector('.next').addEventListener('click',function(){show(page+1);});
    });
  }
  pagers(document);
  document.querySelectorAll('details.table').forEach(function(d){
    var lazy=d.querySelector('script.lazy');
    if(!lazy){return;}
    d.addEventListener('toggle',function once(){
      d.removeEventListener('toggle',once);
      var body=document.createElement('div');
      body.innerHTML=lazy.textContent;
      d.appendChild(body);
      pagers(body);
    });
  });
  function openHash(){
    var d=location.hash&&document.getElementById(location.hash.substring(1));
    if(d&&d.tagName==='DETAILS'){d.open=true;}
  }
  window.addEventListener('hashchange',openHash);
  openHash();
  var refresh=parseInt(document.body.dataset.refresh,10);
  if(refresh>0){
    var tick=function(){
      var pause=document.getElementById('pause');
      if(pause&&pause.checked){setTimeout(tick,refresh*1000);}else{location.reload();}
    };
    setTimeout(tick,refresh*1000);
  }
})();
