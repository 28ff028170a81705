--TEST--
the gtc module: version, classes, INI defaults, exception hierarchy
--FILE--
<?php
var_dump(extension_loaded('gtc'));
var_dump(phpversion('gtc'));
var_dump(ini_get('gtc.device'), ini_get('gtc.memory_limit'));
foreach (['Exception', 'InvalidArgumentException', 'RuntimeException', 'OutOfMemoryException', 'CompilationException'] as $c) {
    $rc = new ReflectionClass("Cuda\\$c");
    echo $rc->getName(), ' extends ', $rc->getParentClass()->getName(), "\n";
}
$rc = new ReflectionClass(Cuda\CudaArray::class);
var_dump($rc->isFinal(), (new ReflectionClass(Cuda\HostArray::class))->isFinal());
?>
--EXPECT--
bool(true)
string(5) "0.1.0"
string(4) "auto"
string(1) "0"
Cuda\Exception extends Exception
Cuda\InvalidArgumentException extends Cuda\Exception
Cuda\RuntimeException extends Cuda\Exception
Cuda\OutOfMemoryException extends Cuda\RuntimeException
Cuda\CompilationException extends Cuda\RuntimeException
bool(true)
bool(true)
