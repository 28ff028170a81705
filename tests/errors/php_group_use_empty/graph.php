<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\{};

require_once __DIR__ . '/gtc_attributes.php';
