--TEST--
gtc.stub.php and optimizer.stub.php match the loaded extension (classes, methods, parameters, types, defaults)
--FILE--
<?php
// gtc.stub.php first (its namespace is the one read below), then the other class stubs
$src = '';
foreach (['gtc.stub.php', 'optimizer.stub.php'] as $stub) {
    $src .= file_get_contents(__DIR__ . '/../../runtime/php/' . $stub);
}
// Strip comments so doc text cannot look like declarations.
$src = preg_replace('~/\*.*?\*/~s', '', $src);
$src = preg_replace('~//[^\n]*~', '', $src);
preg_match('~namespace\s+([\w\\\\]+);~', $src, $m);
$ns = $m[1];

function norm_type(?string $t, string $ns): string
{
    if ($t === null || $t === '') return '';
    $parts = [];
    $t = trim($t);
    if ($t[0] === '?') { $parts[] = 'null'; $t = substr($t, 1); }
    foreach (explode('|', $t) as $p) {
        $p = trim($p);
        $lp = strtolower($p);
        if (in_array($lp, ['int', 'float', 'bool', 'string', 'array', 'null', 'void', 'mixed', 'object', 'callable', 'iterable', 'false', 'true', 'static', 'never'])) {
            $parts[] = $lp;
        } elseif ($p[0] === '\\') {
            $parts[] = substr($p, 1);
        } else {
            $parts[] = $ns . '\\' . $p;
        }
    }
    sort($parts);
    return implode('|', array_unique($parts));
}

function refl_type(?ReflectionType $t): string
{
    if ($t === null) return '';
    $parts = [];
    $list = $t instanceof ReflectionUnionType ? $t->getTypes() : [$t];
    foreach ($list as $p) {
        $name = $p->getName();
        $parts[] = in_array(strtolower($name), ['int', 'float', 'bool', 'string', 'array', 'null', 'void', 'mixed', 'false', 'true', 'static', 'never']) ? strtolower($name) : $name;
    }
    if ($t->allowsNull() && !in_array('null', $parts) && !in_array('mixed', $parts)) $parts[] = 'null';
    sort($parts);
    return implode('|', array_unique($parts));
}

function stub_default(string $d)
{
    $d = trim($d);
    if ($d === 'null') return null;
    if ($d === 'false') return false;
    if ($d === 'true') return true;
    if (preg_match('~^-?\d+$~', $d)) return (int)$d;
    if (is_numeric($d)) return (float)$d;
    if (preg_match('~^"(.*)"$~s', $d, $m) || preg_match("~^'(.*)'$~s", $d, $m)) return $m[1];
    if ($d === '[]') return [];
    if (preg_match('~^\[(-?\d+(?:\s*,\s*-?\d+)*)\]$~', $d, $m)) return array_map('intval', preg_split('~\s*,\s*~', $m[1]));
    throw new Exception("unsupported default $d");
}

$errors = [];
$nclasses = $nmethods = $nparams = 0;
// Classes: header up to the opening brace, then the body up to the matching closing brace.
preg_match_all('~((?:final\s+|abstract\s+)*)class\s+(\w+)(?:\s+extends\s+([\w\\\\]+))?(?:\s+implements\s+([\w\\\\,\s]+))?\s*\{~', $src, $cm, PREG_SET_ORDER | PREG_OFFSET_CAPTURE);
$stubClasses = [];
foreach ($cm as $c) {
    $start = $c[0][1] + strlen($c[0][0]);
    $depth = 1;
    for ($i = $start; $depth > 0; $i++) {
        if ($src[$i] === '{') $depth++;
        if ($src[$i] === '}') $depth--;
    }
    $body = substr($src, $start, $i - $start - 1);
    $name = $ns . '\\' . $c[2][0];
    $stubClasses[] = $name;
    $nclasses++;
    if (!class_exists($name)) { $errors[] = "$name: missing"; continue; }
    $rc = new ReflectionClass($name);
    if ($rc->isFinal() !== str_contains($c[1][0], 'final')) $errors[] = "$name: final differs";
    $parent = isset($c[3]) && $c[3][0] !== '' ? norm_type($c[3][0], $ns) : '';
    $rparent = $rc->getParentClass() ? $rc->getParentClass()->getName() : '';
    if ($parent !== $rparent) $errors[] = "$name: parent $rparent, stub says $parent";

    preg_match_all('~(public|protected|private)\s+(static\s+)?function\s+(\w+)\s*\(([^)]*)\)\s*(?::\s*([^{;]+?))?\s*[{;]~', $body, $mm, PREG_SET_ORDER);
    $stubMethods = [];
    foreach ($mm as $m) {
        [$all, $vis, $static, $mname, $params] = $m;
        $ret = $m[5] ?? '';
        $stubMethods[] = $mname;
        $nmethods++;
        if (!$rc->hasMethod($mname)) { $errors[] = "$name::$mname: missing"; continue; }
        $rm = $rc->getMethod($mname);
        $where = "$name::$mname";
        if ($rm->getDeclaringClass()->getName() !== $name) $errors[] = "$where: not declared in the class";
        $rvis = $rm->isPublic() ? 'public' : ($rm->isProtected() ? 'protected' : 'private');
        if ($rvis !== $vis) $errors[] = "$where: $rvis, stub says $vis";
        if ($rm->isStatic() !== ($static !== '')) $errors[] = "$where: static differs";
        $rt = $rm->hasReturnType() ? refl_type($rm->getReturnType()) : '';
        if (norm_type($ret, $ns) !== $rt) $errors[] = "$where: returns '$rt', stub says '" . norm_type($ret, $ns) . "'";
        // commas inside a list default ([1, 1]) do not separate parameters
        $sp = trim($params) === '' ? [] : array_map('trim', preg_split('~,(?![^\[]*\])~', $params));
        $rp = $rm->getParameters();
        if (count($sp) !== count($rp)) { $errors[] = "$where: " . count($rp) . " parameters, stub has " . count($sp); continue; }
        $required = 0;
        foreach ($sp as $i => $p) {
            $nparams++;
            if (!preg_match('~^(?:([?\w\\\\|]+)\s+)?(\.\.\.)?\$(\w+)(?:\s*=\s*(.+))?$~s', $p, $pm)) { $errors[] = "$where: cannot parse '$p'"; continue; }
            $ptype = $pm[1]; $pname = $pm[3]; $pdef = $pm[4] ?? null;
            $r = $rp[$i];
            if ($r->getName() !== $pname) $errors[] = "$where: parameter $i is \$" . $r->getName() . ", stub says \$$pname";
            if (norm_type($ptype, $ns) !== refl_type($r->getType())) $errors[] = "$where(\$$pname): type '" . refl_type($r->getType()) . "', stub says '" . norm_type($ptype, $ns) . "'";
            if ($pm[2] !== '') { // variadic: optional by nature, never counted as required
                if (!$r->isVariadic()) $errors[] = "$where(\$$pname): not variadic, stub says variadic";
            } elseif ($pdef === null) {
                if ($r->isOptional()) $errors[] = "$where(\$$pname): optional, stub says required";
                $required = $i + 1;
            } else {
                if (!$r->isOptional()) $errors[] = "$where(\$$pname): required, stub has a default";
                elseif (!$r->isDefaultValueAvailable()) $errors[] = "$where(\$$pname): no default value";
                elseif ($r->getDefaultValue() !== stub_default($pdef)) $errors[] = "$where(\$$pname): default " . var_export($r->getDefaultValue(), true) . ", stub says $pdef";
            }
        }
        if ($rm->getNumberOfRequiredParameters() !== $required) $errors[] = "$where: " . $rm->getNumberOfRequiredParameters() . " required parameters, stub says $required";
    }
    foreach ($rc->getMethods() as $rm) {
        if ($rm->getDeclaringClass()->getName() === $name && !in_array($rm->getName(), $stubMethods)) {
            $errors[] = "$name::" . $rm->getName() . ": not in the stub";
        }
    }
}
// Every class of the extension is in the stub.
foreach ((new ReflectionExtension('gtc'))->getClassNames() as $cls) {
    $real = (new ReflectionClass($cls))->getName(); /* an alias (Cuda\ContiguousArray) names its class */
    if (!in_array($real, $stubClasses)) $errors[] = "$cls: not in the stub";
}
echo implode("\n", $errors), $errors ? "\n" : '';
echo "classes $nclasses, methods $nmethods, parameters $nparams\n";
echo $nclasses >= 7 && $nmethods >= 70 ? "ok\n" : "too few declarations parsed\n";
?>
--EXPECTF--
classes %d, methods %d, parameters %d
ok
