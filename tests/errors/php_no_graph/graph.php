<?php
function f($x) {
    return $x;
}
