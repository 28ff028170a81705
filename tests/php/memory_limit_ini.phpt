--TEST--
gtc.memory_limit accepts PHP quantities (K, M, G) and rejects garbage; phpinfo shows it
--INI--
gtc.memory_limit=64M
--FILE--
<?php
var_dump(ini_get('gtc.memory_limit'));
var_dump(ini_set('gtc.memory_limit', '2G'), ini_get('gtc.memory_limit'));
var_dump(ini_set('gtc.memory_limit', '512k'), ini_get('gtc.memory_limit'));
var_dump(@ini_set('gtc.memory_limit', 'lots'), ini_get('gtc.memory_limit'));
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
preg_match('/^Memory limit => (.*)$/m', $info, $m);
echo $m[1], "\n";
ini_set('gtc.memory_limit', '-1');
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^Memory limit => (.*)$/m', ob_get_clean(), $m);
echo $m[1], "\n";
?>
--EXPECT--
string(3) "64M"
string(3) "64M"
string(2) "2G"
string(2) "2G"
string(4) "512k"
bool(false)
string(4) "512k"
512K
unlimited
