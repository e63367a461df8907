/* caliper/cali_macros.h: Caliper's macro header, here one with caliper/cali.h (scalegate's
 * stand-in). */
#include "cali.h"
