variable "db_password" {
  type      = string
  sensitive = true
}

resource "aws_db_instance" "main" {
  username = "app"
  password = var.db_password
  manage_master_user_password = false
}
