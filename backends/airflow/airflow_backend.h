// The Airflow target (`flowc compile --target airflow`).
#ifndef FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_
#define FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_

#include "backends/backend.h"

namespace flowc::backends::airflow {

const Backend& AirflowBackend();

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_
